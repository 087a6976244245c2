import { foldLoopEvents } from '#shared/loop/conversation-state'
import type { ConversationState } from '#shared/loop/conversation-state'
import type { LoopEvent } from '#shared/loop/loop-event'
import { isMcpJobQuestionEvent } from '#shared/mcp/mcp-job-question'
import type { JobStore } from '../store/job-store-types'

export { INTERRUPTED_TOOL_MESSAGE, interruptedToolResult } from '#shared/loop/resume-step'

/**
 * The chat as its last run left it, for a takeover: the saved state with the events appended after it folded in.
 * Every event of a run is appended with its claim's fencing token before the loop goes on, and a handler runs only
 * after its `tool-call-running` event was appended (the executor awaits `onStart`), so the fold says which calls of
 * the cut step started, which ended and how.
 */
export interface CutStep {
  state: ConversationState
  /** The id of the last event the stream holds (the cut run's last write). */
  lastEventId: number
}

const PAGE = 1000

/**
 * Reads the events after event `afterEventId` (the last one of the last saved step) and folds them into `saved`.
 * Undefined when the stream lost some of them to its bound: what ran is then not known for sure, and the step is
 * asked again from the start.
 */
export async function readCutStep(store: JobStore, jobId: string, afterEventId: number, saved: ConversationState): Promise<CutStep | undefined> {
  const events: LoopEvent[] = []
  let after = afterEventId
  for (;;) {
    const page = await store.readEvents<LoopEvent>(jobId, after, PAGE)
    if (page.length === 0) break
    if (page[0]!.id !== after + 1) return undefined
    // an MCP server's questions share the stream but are no part of the chat
    events.push(...page.map(item => item.event).filter(event => !isMcpJobQuestionEvent(event)))
    after = page.at(-1)!.id
    if (page.length < PAGE) break
  }
  return { state: foldLoopEvents(events, saved), lastEventId: after }
}
