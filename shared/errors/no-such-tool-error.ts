import { clipMiddle } from './clip-text'
import { toolText } from './tool-messages'

export interface NoSuchToolErrorOptions {
  toolName: string
  /** Names of the tools that were offered for this request. */
  availableTools: string[]
  cause?: unknown
}

/** The name is the model's text: echoing a megabyte of it back would only feed the next turn the same garbage. */
const MAX_ECHOED_NAME_CHARS = 100

/** The model called a tool that was not offered (unknown, or switched off by the user). */
export class NoSuchToolError extends Error {
  override readonly name = 'NoSuchToolError'
  readonly toolName: string
  readonly availableTools: string[]

  constructor(options: NoSuchToolErrorOptions) {
    const available = options.availableTools.length > 0 ? options.availableTools.join(', ') : 'none'
    super(toolText('tool.noSuchTool', { name: clipMiddle(options.toolName, MAX_ECHOED_NAME_CHARS), available }).message, { cause: options.cause })
    this.toolName = options.toolName
    this.availableTools = options.availableTools
  }

  static isInstance(value: unknown): value is NoSuchToolError {
    return value instanceof NoSuchToolError || (value instanceof Error && value.name === 'NoSuchToolError')
  }
}
