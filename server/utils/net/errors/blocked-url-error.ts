export interface BlockedUrlErrorOptions {
  /** The URL as asked (or as a redirect named it). */
  url: string
  /** Why it is refused, for the model and the user: `127.0.0.1 is a loopback address`. */
  reason: string
}

/**
 * A URL the server will not fetch because it leads inside the server's network (a private, loopback, link-local or
 * other non-public address), or is not plain http(s). Refused before any connection is opened.
 */
export class BlockedUrlError extends Error {
  override readonly name = 'BlockedUrlError'
  readonly url: string
  readonly reason: string

  constructor(options: BlockedUrlErrorOptions) {
    super(`Refused to fetch ${options.url}: ${options.reason}. Only public http(s) addresses can be fetched.`)
    this.url = options.url
    this.reason = options.reason
  }

  static isInstance(value: unknown): value is BlockedUrlError {
    return value instanceof BlockedUrlError || (value instanceof Error && value.name === 'BlockedUrlError')
  }
}
