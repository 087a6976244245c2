import { createConversationState, foldLoopEvent } from '#shared/loop/conversation-state'
import type { CallState } from '#shared/loop/conversation-state'
import type { LoopEvent } from '#shared/loop/loop-event'
import { describeLoopFailure } from '#shared/loop/loop-failure'
import { addMessage, deleteMessagesAfter, updateMessage } from './messages'
import { createStreamingWriter } from './streaming-writer'
import { storeEditedToolCall } from './edited-tool-call'
import { callRowPatch } from './call-row-patch'
import type { MessageRecord, StoredError } from './types'

/** The in-memory view of the reply being streamed, shown before the throttled Dexie write lands. */
export interface StreamingDraft {
  messageId: string
  content: string
  reasoning: string
}

export interface LoopRecorderOptions {
  threadId: string
  model?: string
  /** Called with the text streamed so far for the current step, on each change (the caller paces its renders). */
  onDraft?: (draft: StreamingDraft | null) => void
  /** Called for failures of the store itself, so the user hears about them. */
  onStorageError?: (error: Error) => void
  /** @default 250 */
  writeIntervalMs?: number
  /**
   * The thread's rows, to write on where a recording left off (a server-run chat reopened after a reload): the
   * reply row still streaming and the tool rows are picked up instead of created again.
   */
  resumeFrom?: MessageRecord[]
  /**
   * With `resumeFrom`: the step the last recorded event belonged to. Its rows (the last assistant row and those after
   * it) are the ones to drop if the server starts that step again after a takeover.
   */
  resumeStep?: number
  /**
   * A cut reply (interrupted or stopped) that Continue writes on: the first step's text is appended to this row
   * instead of a new one, so the user reads one reply.
   */
  continueRow?: MessageRecord
}

export interface LoopRecorder {
  /** The run's listener: hand it every LoopEvent, in order, wherever the loop runs (this tab or the server). */
  record: (event: LoopEvent) => Promise<void>
  /** Opens the first assistant row before the request goes out, so a reload mid-stream finds it. */
  start: () => Promise<void>
  /** Resolves when every write asked for so far has landed, the streamed text included. */
  settled: () => Promise<void>
  /** The id of the assistant row being streamed, if any. */
  currentMessageId: () => string | undefined
}

/** Turns an error into what we store on a message: a message the user can act on, and whether Retry helps. */
export function toStoredError(error: unknown): StoredError {
  return describeLoopFailure(error)
}

/**
 * Writes what the loop engine reports into Dexie, in order: one assistant row per step (throttled while it
 * streams, finalised exactly once), one tool row per call (queued → running → done/error/cancelled). The events are
 * folded by the one reducer (conversation-state.ts) and each tool row gets what changed in its call's state; the
 * streamed text goes straight to the writer and the draft, so tokens cost no more than an append.
 */
export function createLoopRecorder(options: LoopRecorderOptions): LoopRecorder {
  const { threadId, model, onDraft, onStorageError } = options
  let writer: ReturnType<typeof createStreamingWriter> | undefined
  let assistantId: string | undefined
  let lastAssistantId: string | undefined
  /** The run as its events left it: each call's status, the notices of this turn, how it ended. */
  let state = createConversationState()
  /** Tool rows by call id; a promise so updates wait for the row to exist. */
  const toolRows = new Map<string, Promise<string>>()
  /** Serialises writes so rows land in the model's order. */
  let queue: Promise<unknown> = Promise.resolve()
  /** The last step a `step-start` was seen for, and the position (seq) of each step's first row. */
  let startedStep = 0
  const stepFirstSeq = new Map<number, number>()
  /** Tool rows' positions, so a repeated step forgets the calls it drops. */
  const toolRowSeq = new Map<string, number>()

  const enqueue = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task)
    queue = next.catch((error) => {
      onStorageError?.(error as Error)
    })
    return next
  }

  // Every change goes out as it happens: the page paces its renders (one per frame in a burst), and a second pacer
  // here showed each word a frame later.
  const publishDraft = () => {
    // Derived, not stored: the open row and the text of this step so far.
    onDraft?.(assistantId ? { messageId: assistantId, content: stepText, reasoning: stepReasoning } : null)
  }

  /** Text of the current step that arrived before its row existed (the row is created asynchronously). */
  let stepText = ''
  let stepReasoning = ''
  /** What the current step's row held before it (a continued reply's text so far), and what the next step-start takes over. */
  let stepPrefix = ''
  let carried: { text: string, reasoning: string } | undefined

  async function openAssistantRow() {
    const row = await addMessage({ threadId, role: 'assistant', content: '', status: 'streaming', model })
    if (!stepFirstSeq.has(Math.max(startedStep, 1))) stepFirstSeq.set(Math.max(startedStep, 1), row.seq)
    assistantId = row.id
    lastAssistantId = row.id
    writer = createStreamingWriter(row.id, { intervalMs: options.writeIntervalMs ?? 250, onError: onStorageError })
    if (stepText) writer.appendText(stepText)
    if (stepReasoning) writer.appendReasoning(stepReasoning)
    publishDraft()
  }

  function ensureToolRow(callId: string, name: string, argumentsText?: string): Promise<string> {
    let row = toolRows.get(callId)
    if (!row) {
      row = enqueue(async () => {
        const created = await addMessage({
          threadId,
          role: 'tool',
          content: '',
          status: 'pending',
          toolCallId: callId,
          toolName: name,
          toolArguments: argumentsText,
          toolStatus: 'queued',
        })
        toolRowSeq.set(callId, created.seq)
        return created.id
      })
      toolRows.set(callId, row)
    }
    return row
  }

  const updateToolRow = (callId: string, name: string, patch: Partial<MessageRecord>) =>
    enqueue(async () => {
      const id = await ensureToolRow(callId, name)
      await updateMessage(id, patch)
    })

  async function finishStep(event: Extract<LoopEvent, { type: 'step-finish' }>, before: typeof state) {
    // The row of this step may still be being created.
    await queue
    const currentWriter = writer
    const id = assistantId
    if (!currentWriter || !id) return
    const patch: Partial<MessageRecord> = {
      status: 'complete',
      toolCalls: event.message.tool_calls?.length ? event.message.tool_calls : undefined,
      usage: event.usage,
    }
    if (event.message.content !== null) patch.content = stepPrefix + event.message.content
    // Stored before the tools run; the tool rows come right after it, with the arguments the model wrote.
    await enqueue(() => currentWriter.finalise(patch))
    for (const call of event.message.tool_calls ?? []) persistCall(before.calls[call.id], state.calls[call.id])
    await queue
    writer = undefined
    assistantId = undefined
    publishDraft()
  }

  /** Writes what changed on a call's row; creates the row for a call not seen before. */
  function persistCall(before: CallState | undefined, after: CallState | undefined): Promise<unknown> | undefined {
    if (!after || after === before) return undefined
    const patch = callRowPatch(before, after)
    if (Object.keys(patch).length === 0) return ensureToolRow(after.callId, after.toolName, after.call?.function.arguments)
    if (!toolRows.has(after.callId)) ensureToolRow(after.callId, after.toolName, after.call?.function.arguments)
    return updateToolRow(after.callId, after.toolName, patch)
  }

  /** How the run ended: stopped, error (with the message the user sees) or a notice such as the step cap. */
  async function finishRun() {
    const finishReason = state.end?.finishReason
    const failure = state.end?.error
    await queue
    // A step that never reached step-finish (failed before streaming) is closed here, once.
    if (writer && assistantId) {
      const id = assistantId
      const currentWriter = writer
      writer = undefined
      assistantId = undefined
      await enqueue(() => currentWriter.finalise({ status: finishReason === 'aborted' ? 'stopped' : failure ? 'error' : 'complete' }))
      lastAssistantId = id
    }
    const targetId = lastAssistantId
    if (targetId) {
      const patch: Partial<MessageRecord> = {}
      if (finishReason === 'aborted') patch.status = 'stopped'
      if (failure) {
        patch.status = 'error'
        patch.error = failure
      }
      if (state.notices.length) {
        patch.notices = state.notices.map(({ kind, message, code, params }) => ({ kind, message, ...(code && { code, params }) }))
        // `notice` stays the last one: rows written before `notices` existed, and Continue, read it
        patch.notice = patch.notices.at(-1)
      }
      if (Object.keys(patch).length) await enqueue(() => updateMessage(targetId, patch))
      await queue
    }
    onDraft?.(null)
  }

  async function record(event: LoopEvent): Promise<void> {
    const before = state
    state = foldLoopEvent(state, event)
    switch (event.type) {
      case 'step-start':
        stepText = carried?.text ?? ''
        stepReasoning = carried?.reasoning ?? ''
        stepPrefix = stepText
        carried = undefined
        if (event.step <= startedStep) return restartStep(event.step)
        startedStep = event.step
        if (event.step > 1) enqueue(openAssistantRow)
        return
      case 'text-delta':
        stepText += event.text
        writer?.appendText(event.text)
        publishDraft()
        return
      case 'reasoning-delta':
        stepReasoning += event.text
        writer?.appendReasoning(event.text)
        publishDraft()
        return
      case 'tool-call-queued':
        // The card shows "queued" as soon as the model names the tool.
        enqueue(async () => {
          await writer?.flush()
        })
        persistCall(before.calls[event.callId], state.calls[event.callId])
        return
      case 'step-finish':
        return finishStep(event, before)
      case 'tool-call-approval':
        // The assistant row replays what runs: the user's edit replaces the model's arguments there too.
        if (event.arguments !== event.askedArguments) enqueue(() => storeEditedToolCall(threadId, event.callId, event.arguments))
        await persistCall(before.calls[event.callId], state.calls[event.callId])
        return
      case 'tool-call-awaiting-approval':
      case 'tool-call-running':
        // Stored, so the card keeps its buttons across a reload and start-up leaves the turn alone.
        persistCall(before.calls[event.call.id], state.calls[event.call.id])
        return
      case 'tool-call-status':
        persistCall(before.calls[event.callId], state.calls[event.callId])
        return
      case 'tool-call-done':
      case 'tool-call-error':
        await persistCall(before.calls[event.result.callId], state.calls[event.result.callId])
        return
      case 'notice':
        return
      case 'finish':
      case 'fail':
        return finishRun()
    }
  }

  /**
   * A chat on the server was taken over by another instance mid-step: the step starts again (a second `step-start`
   * with its number). What this tab recorded of the cut step (and anything after it) is dropped, so the reply is
   * not shown twice or garbled, and the step is recorded afresh.
   */
  function restartStep(step: number) {
    const cutWriter = writer
    writer = undefined
    assistantId = undefined
    startedStep = step
    enqueue(async () => {
      await cutWriter?.discard()
      const firstSeq = [...stepFirstSeq].filter(([number]) => number >= step).map(([, seq]) => seq).sort((a, b) => a - b)[0]
      if (firstSeq !== undefined) {
        await deleteMessagesAfter(threadId, firstSeq - 1)
        for (const number of [...stepFirstSeq.keys()]) if (number >= step) stepFirstSeq.delete(number)
        for (const [callId, seq] of toolRowSeq) {
          if (seq < firstSeq) continue
          toolRowSeq.delete(callId)
          toolRows.delete(callId)
        }
      }
      await openAssistantRow()
    })
  }

  if (options.resumeFrom) resume(options.resumeFrom)
  if (options.continueRow) continueOn(options.continueRow)

  function continueOn(row: MessageRecord) {
    assistantId = row.id
    lastAssistantId = row.id
    carried = { text: row.content, reasoning: row.reasoning ?? '' }
    writer = createStreamingWriter(row.id, { intervalMs: options.writeIntervalMs ?? 250, onError: onStorageError, initialText: row.content, initialReasoning: row.reasoning ?? '' })
    // Live again: a reload now finds it streaming (and marks it interrupted once more), the card stops saying "Stopped".
    writer.setPatch({ status: 'streaming', error: undefined, continuedFrom: row.content.length })
  }

  function resume(rows: MessageRecord[]) {
    for (const row of rows) {
      if (row.role === 'tool' && row.toolCallId) toolRows.set(row.toolCallId, Promise.resolve(row.id))
    }
    const open = rows.findLast(row => row.role === 'assistant')
    if (!open) return
    lastAssistantId = open.id
    if (options.resumeStep) {
      startedStep = options.resumeStep
      // A continued reply is never dropped by a repeated step: its cut text is the user's to keep.
      if (open.continuedFrom === undefined) stepFirstSeq.set(options.resumeStep, open.seq)
      for (const row of rows) if (row.role === 'tool' && row.toolCallId && row.seq > open.seq) toolRowSeq.set(row.toolCallId, row.seq)
    }
    if (open.status !== 'streaming') return
    assistantId = open.id
    stepText = open.content
    // Reopened while Continue wrote on it: the step's own text, when it arrives whole, goes after the cut text.
    if (open.continuedFrom !== undefined) stepPrefix = open.content.slice(0, open.continuedFrom)
    stepReasoning = open.reasoning ?? ''
    writer = createStreamingWriter(open.id, { intervalMs: options.writeIntervalMs ?? 250, onError: onStorageError, initialText: stepText, initialReasoning: stepReasoning })
  }

  return {
    record,
    start: () => (options.continueRow ? queue.then(() => {}) : enqueue(openAssistantRow)),
    settled: async () => {
      await queue
      await writer?.flush()
    },
    currentMessageId: () => assistantId ?? lastAssistantId,
  }
}
