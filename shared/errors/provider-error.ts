import type { CodedText } from './coded-text'

/** What went wrong with the provider, as a user would name it. Drives the message and the Retry button. */
export type ProviderErrorKind =
  | 'auth' // 401/403: missing or invalid key
  | 'credits' // 402: no credits left
  | 'rate-limit' // 429
  | 'model' // 404 / unknown model / model does not support tools
  | 'bad-request' // other 400s
  | 'network' // fetch failed, connection refused, offline
  | 'server' // 5xx
  | 'stream' // error object or `event: error` in the middle of a stream, or malformed stream
  | 'unknown'

export interface ProviderErrorOptions {
  kind: ProviderErrorKind
  status?: number
  /** True when trying again later can succeed (429, 5xx, network). */
  retryable?: boolean
  /** From `retry-after` (seconds or HTTP date) or the provider's metadata, in milliseconds. */
  retryAfterMs?: number
  /** The provider's own error code, if any. */
  code?: string | number
  /** Raw provider message, shown under the friendly one. */
  providerMessage?: string
  /** `message` as a code (this app's server's refusal), for the user's language. */
  text?: CodedText
  cause?: unknown
}

/** A failure of the model provider: HTTP error, network error or error inside the stream. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError'
  readonly kind: ProviderErrorKind
  readonly status?: number
  readonly retryable: boolean
  readonly retryAfterMs?: number
  readonly code?: string | number
  readonly providerMessage?: string
  readonly text?: CodedText

  constructor(message: string, options: ProviderErrorOptions) {
    super(message, { cause: options.cause })
    this.kind = options.kind
    this.status = options.status
    this.retryable = options.retryable ?? ['rate-limit', 'network', 'server'].includes(options.kind)
    this.retryAfterMs = options.retryAfterMs
    this.code = options.code
    this.providerMessage = options.providerMessage
    this.text = options.text
  }

  /** A failure whose message is a coded sentence (shared/errors/provider-messages.ts), for the user's language. */
  static fromText(text: CodedText, options: Omit<ProviderErrorOptions, 'text'>): ProviderError {
    return new ProviderError(text.message, { ...options, text })
  }

  static isInstance(value: unknown): value is ProviderError {
    return value instanceof ProviderError || (value instanceof Error && value.name === 'ProviderError')
  }
}
