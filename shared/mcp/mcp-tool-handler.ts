import type { ToolHandler } from '../tools/tool-types'
import type { McpCallHooks } from './mcp-call-hooks'
import type { McpConnection } from './mcp-connection'
import type { McpResultImage } from './mcp-tool-result'
import { readMcpToolResult } from './mcp-tool-result'

/** Receives the images of a call's result (the browser shows them on the call's card). */
export type McpImageSink = (callId: string, images: McpResultImage[]) => void

/** What a host does with one call's images, progress and questions, by the call's id. */
export interface McpToolHandlerHooks {
  onImages?: McpImageSink
  /** The hooks of one call (progress, questions to the user), or none. */
  callHooks?: (callId: string) => McpCallHooks | undefined
  /** The call's arguments and the server's whole result, when it succeeded (the browser hands them to the tool's MCP App). */
  onResult?: McpResultSink
}

/** Receives a call's arguments and the server's whole result (the browser hands them to the tool's MCP App). */
export type McpResultSink = (call: { callId: string, threadId: string, args: Record<string, unknown> }, result: unknown) => void

/**
 * The registry handler of one MCP tool: calls it through the connection with the call's signal (Stop and the
 * timeout cancel the request), and returns the result's text for the model. A result the server flags with
 * `isError` is thrown with its text, so it becomes a tool error like a protocol error does.
 */
export function mcpToolHandler(connection: McpConnection, mcpName: string, hooks?: McpImageSink | McpToolHandlerHooks): ToolHandler {
  const { onImages, callHooks, onResult } = typeof hooks === 'function' ? { onImages: hooks, callHooks: undefined, onResult: undefined } : hooks ?? {}
  return async (args, context) => {
    const input = (args ?? {}) as Record<string, unknown>
    const raw = await connection.callTool(mcpName, input, context.signal, callHooks?.(context.callId))
    const result = readMcpToolResult(raw)
    if (!result.isError) onResult?.({ callId: context.callId, threadId: context.threadId, args: input }, raw)
    if (result.images.length > 0) onImages?.(context.callId, result.images)
    if (result.isError) throw new Error(result.text || 'the MCP server reported an error without a message')
    return result.text
  }
}
