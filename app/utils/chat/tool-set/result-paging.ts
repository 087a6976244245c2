import type { LoopEvent } from '#shared/loop/loop-event'
import { createReadToolResultTool, READ_TOOL_RESULT_NAME } from '#shared/tools/read-tool-result-tool'
import type { ExecutableTool, ToolSet } from '#shared/tools/tool-types'
import { listMessages } from '~/db/messages'
import type { MessageRecord } from '~/db/types'

/** The stored full result of a cut call in `threadId`, or undefined when there is none with that id. */
export async function findFullToolResult(callId: string, threadId: string): Promise<string | undefined> {
  const rows: MessageRecord[] = await listMessages(threadId)
  const row = rows.find(candidate => candidate.role === 'tool' && candidate.toolCallId === callId && candidate.truncated)
  return row ? (row.toolResultFull ?? row.content) : undefined
}

export interface ResultPagingOptions {
  /** Whether a chat already holds a cut result. @default looks through the chat's rows in Dexie */
  hasTruncatedResult?: (threadId: string) => Promise<boolean>
  /** The tool that reads the pages. @default `read_tool_result` over Dexie */
  tool?: ExecutableTool
}

/**
 * Adds `read_tool_result` to a chat's ToolSet once that chat has a cut result. `definitions` is read by the loop
 * at every step, so a result cut in this very run makes the tool appear on the next request; `onEvent` learns
 * about such results from the run's LoopEvents (the loop's events are only listened to, never changed).
 */
export function createResultPaging(options: ResultPagingOptions = {}) {
  const tool = options.tool ?? createReadToolResultTool(findFullToolResult)
  const hasTruncatedResult = options.hasTruncatedResult
    ?? (async (threadId: string) => (await listMessages(threadId)).some(row => row.role === 'tool' && row.truncated === true))
  /** Chats known to hold a cut result. */
  const threadsWithCutResults = new Set<string>()

  async function withPaging(base: ToolSet, threadId: string): Promise<ToolSet> {
    if (await hasTruncatedResult(threadId)) threadsWithCutResults.add(threadId)
    const offered = () => threadsWithCutResults.has(threadId)
    return {
      get definitions() {
        return offered() ? [...base.definitions, tool.definition] : base.definitions
      },
      // A registered tool of the same name wins: a plugin author's choice is not overridden silently.
      get: name => base.get(name) ?? (name === READ_TOOL_RESULT_NAME && offered() ? tool : undefined),
    }
  }

  function onEvent(event: LoopEvent, threadId: string) {
    if ((event.type === 'tool-call-done' || event.type === 'tool-call-error') && event.result.truncated) threadsWithCutResults.add(threadId)
  }

  return { withPaging, onEvent }
}
