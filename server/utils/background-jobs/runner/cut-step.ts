import type { LoopEvent } from '#shared/loop/loop-event'
import type { AssistantMessage, ToolCall } from '#shared/types/chat'
import type { ToolResult } from '#shared/tools/tool-types'
import { withEditedCall } from './job-approval'
import type { JobStore } from '../store/job-store-types'

/** What the model and the card are told about a call whose run was cut and that is not safe to run again. */
export const INTERRUPTED_TOOL_MESSAGE = 'The server stopped while this tool ran; it may or may not have completed. It was not run again, so check before asking for it again.'

/**
 * A step whose model reply was recorded (`step-finish` with tool calls) but whose calls did not all end before its
 * run did (the instance died or froze). Read back from the job's own stream: every event of a run is appended with
 * its claim's fencing token before the loop goes on, and a handler runs only after its `tool-call-running` event
 * was appended (the executor awaits `onStart`), so the stream says which calls started, which ended and how.
 */
export interface CutStep {
  /** The step's number in the whole chat. */
  step: number
  /** The model's reply, with the arguments the user edited at approval. */
  message: AssistantMessage
  /** Calls that ended, with the result their run recorded. */
  results: Map<string, ToolResult>
  /** Calls whose handler started and never ended, as they ran. */
  started: Map<string, ToolCall>
  /** Calls cleared to run (approved, or 'auto') that had not started, with the arguments to run. */
  cleared: Map<string, ToolCall>
  /** The id of the last event the stream holds (the cut run's last write). */
  lastEventId: number
}

const PAGE = 1000

/**
 * Reads step `step`'s events after event `afterEventId` (the last one of the last saved step) and returns the step
 * as its last run left it, or undefined when that run did not get as far as a complete reply with tool calls (the
 * step is then asked again from the start) or when the stream lost some of those events to its bound.
 */
export async function readCutStep(store: JobStore, jobId: string, afterEventId: number, step: number): Promise<CutStep | undefined> {
  const events: LoopEvent[] = []
  let after = afterEventId
  for (;;) {
    const page = await store.readEvents<LoopEvent>(jobId, after, PAGE)
    if (page.length === 0) break
    // A gap: the stream dropped events of this step to stay bounded, so what ran is not known for sure.
    if (page[0]!.id !== after + 1) return undefined
    events.push(...page.map(item => item.event))
    after = page.at(-1)!.id
    if (page.length < PAGE) break
  }
  // A step asked again (an earlier takeover of a reply cut while streaming) starts over at its last step-start.
  const from = events.findLastIndex(event => event.type === 'step-start' && event.step === step)
  if (from < 0) return undefined
  let cut: CutStep | undefined
  for (const event of events.slice(from + 1)) {
    if (!('step' in event) || event.step !== step) continue
    if (event.type === 'step-finish') {
      const ended = event.finishReason === 'aborted' || event.finishReason === 'error'
      if (ended || !event.message.tool_calls?.length) return undefined
      cut = { step, message: event.message, results: new Map(), started: new Map(), cleared: new Map(), lastEventId: after }
    }
    else if (!cut) {
      continue
    }
    else if (event.type === 'tool-call-approval') {
      cut.message = withEditedCall(cut.message, event)
      const call = cut.message.tool_calls?.find(item => item.id === event.callId)
      if (call && event.decision !== 'denied' && event.decision !== 'never') cut.cleared.set(call.id, call)
    }
    else if (event.type === 'tool-call-running') {
      cut.started.set(event.call.id, event.call)
    }
    else if (event.type === 'tool-call-done' || event.type === 'tool-call-error') {
      cut.results.set(event.result.callId, event.result)
      cut.started.delete(event.result.callId)
    }
  }
  return cut
}

/** The result a cut call gets instead of running twice: an error the model can act on, shown on its card. */
export function interruptedToolResult(call: ToolCall, at = Date.now()): ToolResult {
  const content = `Error: ${INTERRUPTED_TOOL_MESSAGE}`
  return {
    callId: call.id, name: call.function.name, arguments: call.function.arguments, status: 'error',
    content, fullContent: content, truncated: false, error: { kind: 'interrupted', message: INTERRUPTED_TOOL_MESSAGE }, startedAt: at, finishedAt: at,
  }
}
