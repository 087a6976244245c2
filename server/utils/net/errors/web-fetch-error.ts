export interface WebFetchErrorOptions {
  url: string
  /** What went wrong, written for the model and the user: `the page answered HTTP 404 Not Found`. */
  reason: string
  /** The HTTP status, when the server answered with an error. */
  status?: number
  cause?: unknown
}

/** A public page could not be fetched or read: no such host, an HTTP error, a refused content type, the time cap. */
export class WebFetchError extends Error {
  override readonly name = 'WebFetchError'
  readonly url: string
  readonly reason: string
  readonly status?: number

  constructor(options: WebFetchErrorOptions) {
    super(`Could not fetch ${options.url}: ${options.reason}.`, { cause: options.cause })
    this.url = options.url
    this.reason = options.reason
    this.status = options.status
  }

  static isInstance(value: unknown): value is WebFetchError {
    return value instanceof WebFetchError || (value instanceof Error && value.name === 'WebFetchError')
  }
}
