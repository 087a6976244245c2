import { ProviderError } from '../errors/provider-error'
import { isAbortError, toAbortError } from './abort-error'
import { providerErrorFromNetworkError, providerErrorFromResponse } from './provider-error-from-response'
import { providerText } from '../errors/provider-messages'

/** One model as listed by GET /models. */
export interface ModelInfo {
  id: string
  /** Display name (OpenRouter); undefined when the server only gives ids. */
  name?: string
  contextLength?: number
  /** From OpenRouter's `supported_parameters` including 'tools'; undefined when the server does not say. */
  supportsTools: boolean | undefined
  /** From `supported_parameters` including 'reasoning' (a reasoning effort may be sent); undefined when not said. */
  supportsReasoning?: boolean
  /** From OpenRouter's `architecture.input_modalities` including 'image'; undefined when the server does not say. */
  supportsImages?: boolean
}

export interface FetchModelsOptions {
  /** Sent as `Authorization: Bearer` when non-empty. */
  apiKey?: string
  /** @default globalThis.fetch */
  fetch?: typeof fetch
  /** Extra request headers (e.g. OpenRouter attribution). */
  headers?: Record<string, string>
  signal?: AbortSignal
}

function toModelInfo(entry: unknown): ModelInfo | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined
  const record = entry as Record<string, unknown>
  if (typeof record.id !== 'string' || record.id === '') return undefined
  const parameters = record.supported_parameters
  return {
    id: record.id,
    name: typeof record.name === 'string' ? record.name : undefined,
    contextLength: typeof record.context_length === 'number' ? record.context_length : undefined,
    supportsTools: Array.isArray(parameters) ? parameters.includes('tools') : undefined,
    supportsReasoning: Array.isArray(parameters) ? parameters.includes('reasoning') : undefined,
    supportsImages: inputModalitiesOf(record)?.includes('image'),
  }
}

function inputModalitiesOf(record: Record<string, unknown>): unknown[] | undefined {
  const architecture = record.architecture
  if (typeof architecture !== 'object' || architecture === null) return undefined
  const modalities = (architecture as Record<string, unknown>).input_modalities
  return Array.isArray(modalities) ? modalities : undefined
}

/**
 * Lists the models of an OpenAI-compatible server (GET `${baseURL}/models`). Understands OpenRouter's
 * `{data:[{id,name,context_length,supported_parameters}]}` and the plain OpenAI/Ollama `{data:[{id}]}`.
 * Throws a ProviderError for HTTP and network failures (an abort stays an AbortError).
 */
export async function fetchModels(baseURL: string, options: FetchModelsOptions = {}): Promise<ModelInfo[]> {
  const { apiKey, headers = {}, signal } = options
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const base = baseURL.replace(/\/+$/, '')
  const requestHeaders: Record<string, string> = { Accept: 'application/json', ...headers }
  if (apiKey?.trim()) requestHeaders.Authorization = `Bearer ${apiKey.trim()}`
  let response: Response
  try {
    response = await fetchImpl(`${base}/models`, { headers: requestHeaders, signal })
  }
  catch (error) {
    if (signal?.aborted || isAbortError(error)) throw toAbortError(signal?.reason ?? error)
    throw providerErrorFromNetworkError(error, base)
  }
  if (!response.ok) throw await providerErrorFromResponse(response, { baseUrl: base })
  let body: unknown
  try {
    body = await response.json()
  }
  catch (error) {
    throw ProviderError.fromText(providerText('provider.modelListNotJson'), { kind: 'bad-request', status: response.status, cause: error })
  }
  const list = typeof body === 'object' && body !== null ? (body as { data?: unknown, models?: unknown }).data ?? (body as { models?: unknown }).models : undefined
  if (!Array.isArray(list)) return []
  return list.map(toModelInfo).filter((model): model is ModelInfo => model !== undefined)
}
