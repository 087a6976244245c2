/**
 * Message and tool shapes in the OpenAI chat-completions wire format, shared by app and server.
 * These are exactly what the model receives: no UI metadata lives here.
 */

/** One function call the assistant asked for. `arguments` is the raw JSON text the model wrote. */
export interface ToolCall {
  id: string
  type: 'function'
  function: { name: string, arguments: string }
}

export interface SystemMessage { role: 'system', content: string }
/** A part of a user message's content: its text, or an image as a `data:` (or https) URL. */
export interface TextContentPart { type: 'text', text: string }
export interface ImageContentPart { type: 'image_url', image_url: { url: string, detail?: 'auto' | 'low' | 'high' } }
export type ContentPart = TextContentPart | ImageContentPart

/**
 * What the user wrote: plain text, or parts when images go with it (a message without attachments stays a
 * string, so everything that reads text keeps reading text).
 */
export interface UserMessage { role: 'user', content: string | ContentPart[] }
export interface AssistantMessage {
  role: 'assistant'
  content: string | null
  tool_calls?: ToolCall[]
}
export interface ToolMessage {
  role: 'tool'
  tool_call_id: string
  /** Not part of the OpenAI spec but accepted by OpenRouter and most servers; helps local models. */
  name?: string
  content: string
}

export type ModelMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage

/** JSON Schema of a tool's parameters: always an object schema. */
export interface JsonSchemaObject {
  type: 'object'
  properties?: Record<string, unknown>
  required?: string[]
  [key: string]: unknown
}

/** A tool as sent to the model in `tools`: pure OpenAI JSON, no metadata. */
export interface ToolDefinition {
  type: 'function'
  function: {
    name: string
    description?: string
    parameters: JsonSchemaObject
    strict?: boolean
  }
}

/** A tool's `function` as plugins write it: `parameters` may be left out (→ `{ type: 'object', properties: {} }`). */
export type ToolFunctionInput = Omit<ToolDefinition['function'], 'parameters'> & { parameters?: JsonSchemaObject }

export interface TokenUsage {
  promptTokens?: number
  completionTokens?: number
  totalTokens?: number
  reasoningTokens?: number
  cost?: number
}
