import { toolText } from './tool-messages'

export interface ToolCancelledErrorOptions {
  toolName: string
  /** Why, in the user's words (shown on the card and sent to the model). */
  reason?: string
}

/**
 * Thrown by a handler whose call the user cancelled while it waited (a browser-only tool of a chat running on the
 * server): the executor ends the call 'cancelled', as after Stop, but the run goes on.
 */
export class ToolCancelledError extends Error {
  override readonly name = 'ToolCancelledError'
  readonly toolName: string

  constructor(options: ToolCancelledErrorOptions) {
    super(options.reason ?? toolText('tool.cancelledByUser', { name: options.toolName }).message)
    this.toolName = options.toolName
  }

  /** Never throws: a handler may throw anything, a revoked Proxy included (whose `instanceof` throws). */
  static isInstance(value: unknown): value is ToolCancelledError {
    try {
      return value instanceof ToolCancelledError || (value instanceof Error && value.name === 'ToolCancelledError')
    }
    catch {
      return false
    }
  }
}
