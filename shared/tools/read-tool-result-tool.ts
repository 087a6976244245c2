import type { ToolDefinition } from '../types/chat'
import { DEFAULT_PAGE_CHARS, MAX_PAGE_CHARS, pageToolResult } from './page-tool-result'
import type { ExecutableTool } from './tool-types'

export const READ_TOOL_RESULT_NAME = 'read_tool_result'

const definition: ToolDefinition = {
  type: 'function',
  function: {
    name: READ_TOOL_RESULT_NAME,
    description: 'Read more of a tool result that was cut short (its text ends with "[Result truncated …]"). '
      + 'Returns one page of the full stored result and the offset of the next page.',
    parameters: {
      type: 'object',
      properties: {
        call_id: { type: 'string', description: 'The id of the tool call whose result was cut.' },
        offset: { type: 'integer', minimum: 0, description: 'First character to return (0-based).' },
        length: { type: 'integer', minimum: 1, maximum: MAX_PAGE_CHARS, description: `Characters to return. Default ${DEFAULT_PAGE_CHARS}.` },
      },
      required: ['call_id', 'offset'],
      additionalProperties: false,
    },
  },
}

/**
 * The built-in `read_tool_result` tool. `findFullResult` returns the whole stored result of a call in this chat,
 * or undefined when the chat has no cut result with that id. Errors are thrown so the executor hands them to the
 * model as an error result it can correct.
 */
export function createReadToolResultTool(findFullResult: (callId: string, threadId: string) => Promise<string | undefined>): ExecutableTool {
  return {
    definition,
    handler: async (args: { call_id: string, offset: number, length?: number }, context) => {
      const full = await findFullResult(args.call_id, context.threadId)
      if (full === undefined) throw new Error(`No cut tool result with call_id "${args.call_id}" in this chat.`)
      return pageToolResult(full, args.offset, args.length)
    },
  }
}
