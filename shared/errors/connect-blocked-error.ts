/**
 * A tool's fetch that the page's Content-Security-Policy refused before it left the browser: the origin is not
 * among those the page may connect to (a plugin's `connects`, the endpoints the user allowed, OpenRouter).
 */
export class ConnectBlockedError extends Error {
  override readonly name = 'ConnectBlockedError'
  /** The refused origin, `https://host[:port]`. */
  readonly origin: string

  constructor(origin: string, options: { cause?: unknown } = {}) {
    super(`blocked by this page's security policy: ${origin} is not declared`, { cause: options.cause })
    this.origin = origin
  }

  static isInstance(value: unknown): value is ConnectBlockedError {
    return value instanceof ConnectBlockedError || (value instanceof Error && value.name === 'ConnectBlockedError')
  }
}
