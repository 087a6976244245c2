import { parseJson } from '../security/parse-json'
import { ProviderError } from '../errors/provider-error'
import type { ProviderErrorKind } from '../errors/provider-error'
import { isRecord } from '../types/is-record'
import { providerText } from '../errors/provider-messages'
import { codedTextOfBody } from '../errors/coded-text'
import type { CodedText } from '../errors/coded-text'
import { isServerMessageCode } from '../errors/server-messages'

/** What the caller knows about the request, used to name things in the message. */
export interface ProviderErrorContext {
  /** The requested model id, quoted in "model not available" messages. */
  model?: string
  /** The provider's base URL: names the host in network errors and tells OpenRouter apart for the credits hint. */
  baseUrl?: string
}

type JsonObject = Record<string, unknown>

/** How much of an error body is kept; an HTML error page can be large and is never shown whole. */
const MAX_BODY_CHARS = 4000

const MODEL_PATTERNS = [/model[^.]{0,80}not (?:be )?found/i, /no endpoints found/i, /is not a valid model/i, /unknown model/i, /model[^.]{0,80}does not exist/i, /model_not_found/i]
const NO_TOOLS_PATTERN = /support(?:s)? tool|tool use|tools? (?:are|is) not supported|does not support tools/i

function hostOf(baseUrl: string | undefined): string {
  if (!baseUrl) return 'the provider'
  try {
    return new URL(baseUrl).host || baseUrl
  }
  catch {
    return baseUrl
  }
}

function isOpenRouter(baseUrl: string | undefined): boolean {
  return /openrouter\.ai|\/api\/openrouter/i.test(baseUrl ?? '')
}

/** `retry-after` as seconds ("12", "1.5") or an HTTP date, in milliseconds from now; undefined when absent or invalid. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined
  const trimmed = value.trim()
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** The rate-limit sentence, with the wait `retry-after` asked for when it did. */
function rateLimitText(retryAfterMs: number | undefined): CodedText {
  if (retryAfterMs === undefined) return providerText('provider.rateLimited')
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000))
  return seconds < 120 ? providerText('provider.rateLimitedSeconds', { seconds }) : providerText('provider.rateLimitedMinutes', { minutes: Math.ceil(seconds / 60) })
}

/** Message, code and metadata from the shapes providers use: OpenAI/OpenRouter `{error:{…}}`, Ollama `{error:"…"}`, FastAPI `{detail}`. */
function readErrorBody(text: string): { message?: string, code?: string | number, metadata?: JsonObject } {
  const trimmed = text.trim()
  if (trimmed === '') return {}
  if (trimmed.startsWith('<')) {
    // An HTML error page from a proxy or gateway: keep only its title, never the markup.
    const title = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(trimmed)?.[1]?.trim()
    return { message: title ? `HTML error page: ${title}` : 'HTML error page' }
  }
  let body: unknown
  try {
    body = parseJson(trimmed)
  }
  catch {
    return { message: trimmed.slice(0, 500) }
  }
  return readErrorObject(isRecord(body) && body.error !== undefined ? body.error : body)
}

function readErrorObject(error: unknown): { message?: string, code?: string | number, metadata?: JsonObject } {
  if (typeof error === 'string') return { message: error }
  if (!isRecord(error)) return {}
  const message = typeof error.message === 'string' ? error.message : typeof error.detail === 'string' ? error.detail : typeof error.error === 'string' ? error.error : undefined
  const rawCode = error.code ?? error.type
  const code = typeof rawCode === 'string' || typeof rawCode === 'number' ? rawCode : undefined
  return { message, code, metadata: isRecord(error.metadata) ? error.metadata : undefined }
}

/** This app's own server's coded refusal (the OpenRouter proxy's policy, no session, a rate limit), if the body is one. */
function serverRefusalOf(text: string, status: number): { kind: ProviderErrorKind, text: CodedText } | undefined {
  let body: unknown
  try {
    body = text.trim().startsWith('{') ? parseJson(text) : undefined
  }
  catch {
    return undefined
  }
  const coded = codedTextOfBody(body)
  if (!coded || !isServerMessageCode(coded.code)) return undefined
  // its sentence names the cause; calling a 401/403 of this server a bad key would send the user the wrong way
  return { kind: status === 429 ? 'rate-limit' : status >= 500 ? 'server' : 'bad-request', text: coded }
}

function classify(status: number, providerMessage: string, context: ProviderErrorContext, retryAfterMs: number | undefined): { kind: ProviderErrorKind, text: CodedText } {
  const model = context.model ? { model: context.model } : undefined
  const mentionsModel = MODEL_PATTERNS.some(pattern => pattern.test(providerMessage))
  if (mentionsModel && NO_TOOLS_PATTERN.test(providerMessage)) {
    return { kind: 'model', text: model ? providerText('provider.noTools', model) : providerText('provider.noToolsSelected') }
  }
  if (status === 401) return { kind: 'auth', text: providerText('provider.badKey') }
  if (status === 403) {
    // OpenRouter uses 403 for moderation too; calling that a key problem would send the user the wrong way.
    if (/moderation|flagged/i.test(providerMessage)) return { kind: 'bad-request', text: providerText('provider.moderation', { reason: providerMessage }) }
    return { kind: 'auth', text: providerText('provider.badKey') }
  }
  if (status === 402) return { kind: 'credits', text: providerText(isOpenRouter(context.baseUrl) ? 'provider.noCreditsOpenRouter' : 'provider.noCredits') }
  if (status === 429) return { kind: 'rate-limit', text: rateLimitText(retryAfterMs) }
  if (status === 404 || mentionsModel) return { kind: 'model', text: model ? providerText('provider.modelUnavailable', model) : providerText('provider.selectedModelUnavailable') }
  if (status === 408 || status >= 500) return { kind: 'server', text: providerText('provider.serverError', { status }) }
  if (status >= 400) return { kind: 'bad-request', text: providerMessage ? providerText('provider.rejected', { reason: providerMessage }) : providerText('provider.rejectedStatus', { status }) }
  return { kind: 'unknown', text: providerText('provider.unexpected', { status }) }
}

/**
 * Maps a non-2xx response to a ProviderError with a user-facing message (401/403 auth, 402 credits, 429 rate-limit
 * with `retry-after` honoured, 404 or "model not found"-like messages → model, other 4xx bad-request, 5xx server).
 * Reads the body (JSON, plain text or HTML); the raw provider text is kept in `providerMessage`.
 */
export async function providerErrorFromResponse(response: Response, context: ProviderErrorContext = {}): Promise<ProviderError> {
  let text = ''
  try {
    text = (await response.text()).slice(0, MAX_BODY_CHARS)
  }
  catch {
    // The body could not be read (connection dropped); the status alone still says enough.
  }
  const { message: bodyMessage, code, metadata } = readErrorBody(text)
  const raw = typeof metadata?.raw === 'string' ? metadata.raw : undefined
  const providerMessage = [bodyMessage, raw].filter(Boolean).join(' | ') || response.statusText || undefined
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'))
  const { kind, text: said } = serverRefusalOf(text, response.status) ?? classify(response.status, providerMessage ?? '', context, retryAfterMs)
  return ProviderError.fromText(said, {
    kind,
    status: response.status,
    retryAfterMs,
    code,
    providerMessage,
  })
}

/**
 * Maps an error reported inside a stream (`{error:{message,code,metadata}}`, an `event: error` payload, or nothing
 * for a bare `finish_reason: 'error'`) to a ProviderError of kind 'stream'. Retryable when the code says rate limit or
 * server trouble (429, 5xx, `server_error`, `rate_limit…`).
 */
export function providerErrorFromStreamError(errorObject: unknown): ProviderError {
  const { message: providerMessage, code, metadata } = readErrorObject(errorObject)
  const numeric = typeof code === 'number' ? code : isRecord(errorObject) && typeof errorObject.status_code === 'number' ? errorObject.status_code : undefined
  const retryable = numeric === 429 || (numeric !== undefined && numeric >= 500) || /server_error|rate_limit|overloaded|timeout/i.test(String(code ?? metadata?.error_type ?? ''))
  const said = providerMessage ? providerText('provider.stoppedMidAnswer', { reason: providerMessage }) : providerText('provider.stoppedMidAnswerBare')
  return ProviderError.fromText(said, {
    kind: 'stream',
    status: numeric !== undefined && numeric >= 400 && numeric < 600 ? numeric : undefined,
    retryable,
    code,
    providerMessage,
    cause: errorObject,
  })
}

/**
 * Maps a failed `fetch` (DNS, refused connection, offline, CORS) or a body that broke off to a ProviderError of kind
 * 'network'. Callers must check for aborts first: an abort is not a network error.
 * @param options.midStream the body broke off after the response started (changes the wording). @default false
 */
export function providerErrorFromNetworkError(error: unknown, baseUrl?: string, options: { midStream?: boolean } = {}): ProviderError {
  const providerMessage = error instanceof Error ? error.message : typeof error === 'string' ? error : undefined
  const host = hostOf(baseUrl)
  const said = providerText(options.midStream ? 'provider.brokeOff' : 'provider.unreachable', { host })
  return ProviderError.fromText(said, {
    kind: 'network',
    providerMessage,
    cause: error,
  })
}
