import type { ModelMessage, ToolDefinition } from '../types/chat'
import type { StreamEvent } from '../stream/stream-event'
import type { ChatParameters } from '../types/chat-parameters'

/** One request to the model. `tools` and `toolChoice` are omitted when no tool is offered. */
export interface ChatModelRequest {
  messages: ModelMessage[]
  tools?: ToolDefinition[]
  toolChoice?: 'auto'
  /** The chat's sampling parameters, sent as the request's fields; none set: the provider's defaults. */
  parameters?: ChatParameters
  signal: AbortSignal
}

/**
 * The model protocol layer as the loop sees it: one streamed completion per call.
 * Implementations throw a ProviderError for HTTP and network failures (before or during the stream)
 * or yield `{ type: 'error' }` for errors inside the stream.
 */
export interface ChatModel {
  stream: (request: ChatModelRequest) => AsyncIterable<StreamEvent>
}
