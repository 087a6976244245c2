import { z } from 'zod'
import { MAX_CHAT_MESSAGES, MAX_CHAT_TOOLS } from './http/request-limits'
import { FORWARDED_FIELDS, PROVIDER_ROUTING_FIELDS, WEB_SEARCH_FIELDS } from './openrouter-body-schema'
import type { OpenRouterPolicy } from './openrouter-policy'
import { isRecord } from '#shared/types/is-record'
import { serverText } from '#shared/errors/server-messages'
import type { ServerMessageCode } from '#shared/errors/server-messages'
import type { CodedParams, CodedText } from '#shared/errors/coded-text'

/** What the policy made of a chat request on the server's key: the body to forward, or why it is refused. */
export type OpenRouterBodyVerdict =
  | { ok: true, body: Record<string, unknown> }
  | { ok: false, statusCode: 400 | 403, message: string, text: CodedText }

function refuse(statusCode: 400 | 403, code: ServerMessageCode, params: CodedParams = {}): OpenRouterBodyVerdict {
  const text = serverText(code, params)
  return { ok: false, statusCode, message: text.message, text }
}

const quoted = (value: unknown) => JSON.stringify(value)?.slice(0, 120) ?? String(value)

/** The variant suffixes of a model id (`openai/gpt-4o:online` → ['online']). */
function variantsOf(model: unknown): string[] {
  return typeof model === 'string' ? model.toLowerCase().split(':').slice(1) : []
}

/** The first paid option the operator has not allowed, as a 403; undefined when there is none. */
function paidOptionRefusal(body: Record<string, unknown>, models: unknown[], policy: OpenRouterPolicy): OpenRouterBodyVerdict | undefined {
  if (!policy.allowWebSearch) {
    if (Object.hasOwn(body, 'plugins')) return refuse(403, 'server.openrouter.webSearchField', { field: 'plugins' })
    if (Object.hasOwn(body, 'web_search_options')) return refuse(403, 'server.openrouter.webSearchField', { field: 'web_search_options' })
    const online = models.find(model => variantsOf(model).includes('online'))
    if (online !== undefined) return refuse(403, 'server.openrouter.webSearchModel', { model: quoted(online) })
  }
  if (!policy.allowProviderRouting) {
    if (Object.hasOwn(body, 'provider')) return refuse(403, 'server.openrouter.routingField', { field: 'provider' })
    const nitro = models.find(model => variantsOf(model).includes('nitro'))
    if (nitro !== undefined) return refuse(403, 'server.openrouter.routingModel', { model: quoted(nitro) })
  }
  return undefined
}

/** One schema per combination of the operator's switches, built once. */
const schemas = new Map<string, { fields: Set<string>, schema: z.ZodType<Record<string, unknown>> }>()

function schemaFor(policy: OpenRouterPolicy) {
  const key = `${policy.allowWebSearch}:${policy.allowProviderRouting}`
  let entry = schemas.get(key)
  if (!entry) {
    const shape = { ...FORWARDED_FIELDS, ...(policy.allowWebSearch && WEB_SEARCH_FIELDS), ...(policy.allowProviderRouting && PROVIDER_ROUTING_FIELDS) }
    entry = { fields: new Set(Object.keys(shape)), schema: z.object(shape) as unknown as z.ZodType<Record<string, unknown>> }
    schemas.set(key, entry)
  }
  return entry
}

/** `messages[3].content[0].text` */
function pathName(path: PropertyKey[]): string {
  return path.map((part, index) => typeof part === 'number' ? `[${part}]` : `${index > 0 ? '.' : ''}${String(part)}`).join('')
}

function clamp(value: unknown, cap: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.min(Math.floor(value), cap) : cap
}

/** Token limits (`max_tokens`, `max_completion_tokens`, `reasoning.max_tokens`) lowered to the cap, and set when absent. */
function capTokens(body: Record<string, unknown>, maxTokens: number): Record<string, unknown> {
  if (maxTokens === 0) return body
  const capped: Record<string, unknown> = { ...body, max_tokens: clamp(body.max_tokens ?? body.max_completion_tokens, maxTokens) }
  if (body.max_completion_tokens != null) capped.max_completion_tokens = clamp(body.max_completion_tokens, maxTokens)
  if (isRecord(body.reasoning) && body.reasoning.max_tokens != null) {
    capped.reasoning = { ...body.reasoning, max_tokens: clamp(body.reasoning.max_tokens, maxTokens) }
  }
  return capped
}

/**
 * The operator's policy on a chat request made with the server's key, as one pure function (the proxy route, the
 * server-run chats' model and POST /api/chats all call it). It never throws. Refused: anything but a JSON object
 * with a model and messages; more than MAX_CHAT_MESSAGES messages or MAX_CHAT_TOOLS tools; `n` other than 1; a
 * model (`model`, or any of the fallback list `models`) outside NUXT_OPENROUTER_MODELS; options that cost beyond
 * tokens unless the operator allows them (403: `plugins`, `web_search_options`, `:online` models → web search;
 * `provider`, `:nitro` models → provider routing); a top-level field not in the allow-list of
 * openrouter-body-schema.ts (400, naming it: a client should learn that its option is not applied, rather than pay
 * for a reply made without it); a listed field of the wrong shape or out of bounds (400, naming its path).
 * Forwarded: the listed fields, with unknown keys inside messages, content parts and tools dropped, and token
 * limits lowered to NUXT_OPENROUTER_MAX_TOKENS.
 */
export function checkOpenRouterBody(body: unknown, policy: OpenRouterPolicy): OpenRouterBodyVerdict {
  if (!isRecord(body)) return refuse(400, 'server.openrouter.notObject')
  if (!Array.isArray(body.messages)) return refuse(400, 'server.openrouter.noMessages')
  if (body.messages.length > MAX_CHAT_MESSAGES) {
    return refuse(400, 'server.openrouter.tooManyMessages', { count: body.messages.length, max: MAX_CHAT_MESSAGES })
  }
  if (body.tools !== undefined && (!Array.isArray(body.tools) || body.tools.length > MAX_CHAT_TOOLS)) {
    return Array.isArray(body.tools)
      ? refuse(400, 'server.openrouter.tooManyTools', { count: body.tools.length, max: MAX_CHAT_TOOLS })
      : refuse(400, 'server.openrouter.toolsNotArray', { max: MAX_CHAT_TOOLS })
  }
  if (body.n != null && body.n !== 1) return refuse(400, 'server.openrouter.oneChoice')
  if (typeof body.model !== 'string' || !body.model) return refuse(400, 'server.openrouter.noModel')

  const models = [body.model, ...(Array.isArray(body.models) ? body.models : body.models == null ? [] : [body.models])]
  if (policy.allowedModels.length > 0) {
    const refused = models.find(model => typeof model !== 'string' || !policy.allowedModels.includes(model))
    if (refused !== undefined) return refuse(403, 'server.openrouter.modelNotAllowed', { model: quoted(refused), allowed: policy.allowedModels.join(', ') })
  }
  const paid = paidOptionRefusal(body, models, policy)
  if (paid) return paid

  const { fields, schema } = schemaFor(policy)
  const unknown = Object.keys(body).filter(field => !fields.has(field))
  if (unknown.length > 0) {
    const named = unknown.slice(0, 5).map(field => quoted(field)).join(', ') + (unknown.length > 5 ? ` and ${unknown.length - 5} more` : '')
    return refuse(400, unknown.length > 1 ? 'server.openrouter.unknownFields' : 'server.openrouter.unknownField', { fields: named, accepted: [...fields].join(', ') })
  }
  const parsed = schema.safeParse(body)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    return refuse(400, 'server.openrouter.invalidField', { field: pathName(issue.path), reason: issue.message })
  }
  return { ok: true, body: capTokens(parsed.data, policy.maxTokens) }
}
