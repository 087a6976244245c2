import { parseJson } from '#shared/security/parse-json'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { ToolCallMode } from '#shared/loop/loop-types'
import { executeToolCalls } from '#shared/tools/execute-tool-calls'
import { ProviderError } from '#shared/errors/provider-error'
import type { ToolSet } from '#shared/tools/tool-types'
import type { ToolApprovalPolicy } from '#shared/types/server-tools'
import type { ModelMessage, ToolCall } from '#shared/types/chat'
import type { MessageRecord } from '~/db/types'
import { getServerJob, setServerJob } from '~/db/server-jobs'
import type { LoopRecorder } from '~/db/loop-recorder'
import { WAITING_FOR_BROWSER } from '#shared/types/background-chats'
import { openJobEventSource } from './job-event-source'
import { createServerChatQuestions } from './server-chat-questions'
import { isMcpJobQuestionEvent } from '#shared/mcp/mcp-job-question'
import type { McpJobQuestionEvent } from '#shared/mcp/mcp-job-question'
import { yieldToPageWhenBusy } from '../scheduling/yield-to-page'
import { toolSearchForServer } from '../tool-set/chat-tool-search'
import type { ChatParameters } from '#shared/types/chat-parameters'
import { appText, appTextWithReason } from '#shared/errors/app-messages'
import { codedTextOfBody, codeOfFailure, uncodedText } from '#shared/errors/coded-text'
import type { CodedText } from '#shared/errors/coded-text'
import { serverText } from '#shared/errors/server-messages'

/** What POST /api/chats needs to answer a chat on the server. */
export interface StartServerChatOptions {
  threadId: string
  model: string
  messages: ModelMessage[]
  /** The tools switched on now: the server runs its own, and asks a tab of this session for the others. */
  tools: ToolSet
  toolCallMode: ToolCallMode
  maxSteps: number
  /** Each offered tool's approval policy: the job waits for an answer on 'ask' calls and refuses 'never' ones. */
  toolPolicies?: Record<string, ToolApprovalPolicy>
  /** The chat's sampling parameters, sent with every request of the run. */
  parameters?: ChatParameters
  /**
   * "Keep running when I close the tab" with the user's own OpenRouter key: sent with this one request, held only in
   * the memory of the server instance that runs the reply.
   */
  apiKey?: string
}

/** Starts the chat on the server and remembers the job on the thread, so a reopened tab reads on. */
export async function startServerChat(options: StartServerChatOptions): Promise<string> {
  const definitions = options.tools.definitions
  const response = await fetch('/api/chats', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      threadId: options.threadId, model: options.model, messages: options.messages, toolCallMode: options.toolCallMode, maxSteps: options.maxSteps,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      serverTools: definitions.map(definition => definition.function.name),
      ...(options.toolPolicies && { toolPolicies: options.toolPolicies }),
      ...(options.parameters && { parameters: options.parameters }),
      // past the threshold the server offers the tools as the tab would: a few at a time, found by find_tools
      toolSearch: toolSearchForServer(definitions.length),
      browserTools: definitions.map(({ type, function: fn }) => ({ type, function: { name: fn.name, description: fn.description, parameters: fn.parameters } })),
    }),
  })
  const body = await response.json().catch(() => ({})) as { id?: string, message?: string }
  if (!response.ok || !body.id) throw startRefusal(response.status, body)
  await setServerJob(options.threadId, { id: body.id, lastEventId: 0 })
  return body.id
}

/**
 * Why the server did not start the chat, as the reply's error: the server's own words (a cap on unfinished chats
 * says what to do), not a generic "Something went wrong". Worth retrying later when the server is busy (429, 5xx).
 */
function startRefusal(status: number, body: { message?: unknown }): ProviderError {
  const text = codedTextOfBody(body) ?? (typeof body.message === 'string' && body.message.trim() ? uncodedText(body.message) : appText('app.reply.notStarted', { status }))
  return new ProviderError(text.message, { kind: 'unknown', status, retryable: status === 429 || status >= 500, text })
}

/** Stop from this tab: the server stops the job wherever it was started. */
export async function stopServerChat(jobId: string): Promise<void> {
  await fetch(`/api/chats/${encodeURIComponent(jobId)}/stop`, { method: 'POST' }).catch(() => {})
}

export interface FollowServerChatOptions {
  threadId: string
  jobId: string
  /** The last event id already recorded. */
  afterId: number
  recorder: LoopRecorder
  /** The tools of this tab, to answer a browser-only tool the job waits for. */
  tools?: ToolSet
  onEvent?: (event: LoopEvent) => void
  /** Closes the stream (the tab leaves the chat); the job goes on. */
  signal: AbortSignal
  /**
   * Browser-only calls the job was already waiting for when this tab (re)opened the chat: their "waiting" event
   * lies before `afterId`, so this tab answers them at once. See `waitingBrowserCalls`.
   */
  waitingCalls?: ToolCall[]
}

/** The calls a chat's rows show "waiting for this browser" (the job paused on them), to answer on reopening. */
export function waitingBrowserCalls(rows: MessageRecord[]): ToolCall[] {
  return rows
    .filter(row => row.role === 'tool' && row.toolCallId && row.toolName && row.toolStatus === 'running' && row.toolStatusText === WAITING_FOR_BROWSER)
    .map(row => ({ id: row.toolCallId!, type: 'function' as const, function: { name: row.toolName!, arguments: row.toolArguments ?? '{}' } }))
}

/** Cancel on a card waiting for this browser: the job's call ends 'cancelled' and the chat goes on without it. */
export async function cancelBrowserCall(threadId: string, callId: string): Promise<void> {
  const jobId = (await getServerJob(threadId))?.id
  if (!jobId) throw new Error('This chat is no longer running on the server.')
  const response = await fetch(`/api/chats/${encodeURIComponent(jobId)}/tool-results`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callId, cancelled: true }),
  })
  if (!response.ok && response.status !== 409) {
    const body = await response.json().catch(() => ({})) as { message?: string }
    throw new Error(body.message ?? `The server could not cancel the call (HTTP ${response.status}).`)
  }
}

/**
 * Least time between two checkpoints of a followed job (its rows written through, then the last event id stored on
 * the thread), as the tab's own loop writes its reply row at most every 250 ms. A checkpoint after every batch wrote
 * the whole reply row and the thread row dozens of times a second at loopback speed, and each write re-read the
 * message list and the sidebar: the long tasks of a server-run chat that the tab's own loop did not have.
 */
export const CHECKPOINT_INTERVAL_MS = 250

/**
 * Reads the job's LoopEvents (SSE, resumed from `afterId`) into the same recorder a tab's own loop uses. The rows
 * are written at checkpoints only (the recorder's writer should not write on its own: `writeIntervalMs: Infinity`),
 * each followed by the last id recorded, stored on the thread, so a reload reads on exactly where the rows end. A
 * checkpoint comes at most every CHECKPOINT_INTERVAL_MS, and at once when a browser-only call waits for an answer
 * or the run ended. Like the tab's own loop, it yields to the page every 8 ms of reading and recording
 * (`job-event-source.ts`). Resolves after the run's last event, or when `signal` aborts (after a last checkpoint).
 */
export function followServerChat(options: FollowServerChatOptions): Promise<'ended' | 'gone' | 'closed'> {
  const { recorder, threadId, jobId } = options
  return new Promise((resolve) => {
    const backlog: { id: number, event: LoopEvent | McpJobQuestionEvent }[] = []
    // an MCP server's questions during the job's calls: shown on their cards, never recorded
    const questions = createServerChatQuestions(jobId)
    /** Calls by id, and the browser-only ones the job waits for (answered once a batch is recorded). */
    const calls = new Map<string, Extract<LoopEvent, { type: 'tool-call-running' }>>()
    const waiting = new Set<string>()
    let draining = false
    let ended = false
    let gone = false
    /** The tab left the chat: what is not recorded yet is dropped, the rows and the id are stored one last time. */
    let leaving = false
    let lastReceivedId = options.afterId
    let lastRecordedId = options.afterId
    let lastStep: number | undefined
    let lastCheckpointAt = Number.NEGATIVE_INFINITY
    let checkpointTimer: ReturnType<typeof setTimeout> | undefined
    let checkpointDue = false
    const close = (how: 'ended' | 'gone' | 'closed') => {
      source.close()
      questions.close()
      resolve(how)
    }
    for (const call of options.waitingCalls ?? []) void answerBrowserCall(jobId, { type: 'tool-call-running', step: 0, call }, options.tools, options.threadId)
    // a reopened chat: a question asked before the events this tab reads from is shown too
    if (options.afterId > 0) void questions.loadPending()

    /** Rows written through, then the last id recorded stored on the thread (none once the run ended). */
    const checkpoint = async () => {
      clearTimeout(checkpointTimer)
      checkpointTimer = undefined
      checkpointDue = false
      lastCheckpointAt = performance.now()
      const recordedId = lastRecordedId
      await recorder.settled()
      for (const callId of waiting) {
        const call = calls.get(callId)
        if (call) void answerBrowserCall(jobId, call, options.tools, options.threadId)
      }
      waiting.clear()
      await setServerJob(threadId, ended ? undefined : { id: jobId, lastEventId: recordedId, ...(lastStep ? { step: lastStep } : {}) })
    }
    /** The trailing checkpoint of a burst: events recorded since the last one are stored within the interval. */
    const scheduleCheckpoint = () => {
      if (checkpointTimer !== undefined || lastRecordedId === options.afterId) return
      checkpointTimer = setTimeout(() => {
        checkpointTimer = undefined
        checkpointDue = true
        void drain()
      }, Math.max(0, lastCheckpointAt + CHECKPOINT_INTERVAL_MS - performance.now()))
    }

    const drain = async () => {
      if (draining) return
      draining = true
      while ((backlog.length > 0 || checkpointDue) && !leaving) {
        const batch = backlog.splice(0)
        for (const { id, event } of batch) {
          if (leaving) break
          if (isMcpJobQuestionEvent(event)) {
            questions.apply(event)
            continue
          }
          await recorder.record(event)
          lastRecordedId = id
          options.onEvent?.(event)
          if ('step' in event) lastStep = event.step
          if (event.type === 'tool-call-running') calls.set(event.call.id, event)
          if (event.type === 'tool-call-status' && event.text === WAITING_FOR_BROWSER) waiting.add(event.callId)
          if (event.type === 'tool-call-done' || event.type === 'tool-call-error') {
            waiting.delete(event.result.callId)
            questions.callEnded(event.result.callId)
          }
          if (event.type === 'finish' || event.type === 'fail') ended = true
          // A reply written at loopback speed arrives as thousands of events at once: let the page render between.
          await yieldToPageWhenBusy()
        }
        if (leaving) break
        if (checkpointDue || ended || waiting.size > 0 || performance.now() - lastCheckpointAt >= CHECKPOINT_INTERVAL_MS) await checkpoint()
        else scheduleCheckpoint()
      }
      draining = false
      if (leaving) return leave()
      if (ended) close(gone ? 'gone' : 'ended')
    }

    /** Leaving the chat: the rows and the id of what was recorded are stored, then the stream closes. */
    const leave = async () => {
      clearTimeout(checkpointTimer)
      if (lastRecordedId !== options.afterId) await checkpoint().catch(() => {})
      close('closed')
    }

    /** The stream cannot go on: the reply ends here as failed (after what was received), rather than waiting for ever. */
    const failHere = (text: CodedText) => {
      gone = true
      backlog.push({ id: lastReceivedId, event: { type: 'fail', steps: 0, error: { kind: 'server', message: text.message, ...codeOfFailure(text), retryable: true } } })
      void drain()
    }

    const source = openJobEventSource({
      url: afterId => `/api/chats/${encodeURIComponent(jobId)}/events?after=${afterId}`,
      afterId: options.afterId,
      onMessage: ({ id, data }) => {
        const event = parseJobEvent(data)
        // A frame that is not a LoopEvent (a proxy's page, a cut line) is skipped; the ids stay in order.
        if (!event) return
        lastReceivedId = id
        backlog.push({ id, event })
        void drain()
        return !isMcpJobQuestionEvent(event) && (event.type === 'finish' || event.type === 'fail')
      },
      // The server lost the job (it restarted) or refuses it (404), or sent an event too large to hold. A refusal
      // for too many streams or requests (429) says so in its own words: the reply itself may still be running.
      onEnd: end => failHere(end.reason === 'too-large'
        ? appText('app.reply.eventTooLarge')
        : end.status === 429 && end.text
          ? appTextWithReason('app.reply.stoppedFollowing', end.text)
          : serverText('server.job.lost')),
    })
    const onAbort = () => {
      leaving = true
      source.close()
      // a drain under way stops after the event it is recording and stores what it recorded
      if (!draining) void leave()
    }
    if (options.signal.aborted) onAbort()
    else options.signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** One SSE frame's data as a LoopEvent (or a question event), or undefined when it is not JSON with a `type`. */
function parseJobEvent(data: string): LoopEvent | McpJobQuestionEvent | undefined {
  try {
    const value = parseJson(data)
    if (isMcpJobQuestionEvent(value)) return value
    return value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string' ? value as LoopEvent : undefined
  }
  catch {
    return undefined
  }
}

/** Runs a browser-only tool the job called (the server has no handler for it) and sends the result back. */
async function answerBrowserCall(jobId: string, event: Extract<LoopEvent, { type: 'tool-call-running' }>, tools: ToolSet | undefined, threadId: string) {
  if (!tools?.get(event.call.function.name)) return
  // the chat's own id: read_tool_result and search_chat_history look things up by it
  const [result] = await executeToolCalls([event.call], tools, { threadId })
  const body = result!.status === 'done' ? { callId: event.call.id, content: result!.content } : { callId: event.call.id, error: result!.error?.message ?? result!.content }
  await fetch(`/api/chats/${encodeURIComponent(jobId)}/tool-results`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).catch(() => {})
}
