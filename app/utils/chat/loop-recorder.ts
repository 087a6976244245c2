import type { LoopCallbacks, LoopNotice, RunChatLoopResult } from '#shared/loop/loop-types'
import type { ToolResult } from '#shared/tools/tool-types'
import { ProviderError } from '#shared/errors/provider-error'
import { addMessage, updateMessage } from '~/db/messages'
import { createStreamingWriter } from '~/db/streaming-writer'
import type { MessageRecord, StoredError } from '~/db/types'

/** The in-memory view of the reply being streamed, shown before the throttled Dexie write lands. */
export interface StreamingDraft {
  messageId: string
  content: string
  reasoning: string
}

export interface LoopRecorderOptions {
  threadId: string
  model?: string
  /** Called (at most once per animation frame) with the text streamed so far for the current step. */
  onDraft?: (draft: StreamingDraft | null) => void
  /** Called for failures of the store itself, so the user hears about them. */
  onStorageError?: (error: Error) => void
  /** @default 250 */
  writeIntervalMs?: number
}

export interface LoopRecorder {
  callbacks: LoopCallbacks
  /** Opens the first assistant row before the request goes out, so a reload mid-stream finds it. */
  start: () => Promise<void>
  /** Stores how the loop ended: stopped, error (with the message the user sees) or step cap. */
  finish: (result: RunChatLoopResult, aborted: boolean) => Promise<void>
  /** The id of the assistant row being streamed, if any. */
  currentMessageId: () => string | undefined
}

/** Turns an error into what we store on a message: a message the user can act on, and whether Retry helps. */
export function toStoredError(error: unknown): StoredError {
  if (ProviderError.isInstance(error)) {
    const providerError = error as ProviderError
    return {
      kind: providerError.kind,
      message: providerError.message,
      providerMessage: providerError.providerMessage && !providerError.message.includes(providerError.providerMessage) ? providerError.providerMessage : undefined,
      retryable: true,
      retryAfterMs: providerError.retryAfterMs,
    }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { kind: 'unknown', message: `Something went wrong: ${message}`, retryable: true }
}

function toolStatusOf(result: ToolResult): MessageRecord['toolStatus'] {
  return result.status
}

/**
 * Writes what the loop engine reports into Dexie, in order: one assistant row per step (throttled while it
 * streams, finalised exactly once), one tool row per call (queued → running → done/error/cancelled).
 */
export function createLoopRecorder(options: LoopRecorderOptions): LoopRecorder {
  const { threadId, model, onDraft, onStorageError } = options
  let writer: ReturnType<typeof createStreamingWriter> | undefined
  let assistantId: string | undefined
  let lastAssistantId: string | undefined
  let pendingNotice: LoopNotice | undefined
  let frame: ReturnType<typeof setTimeout> | number | undefined
  /** Tool rows by call id; a promise so updates wait for the row to exist. */
  const toolRows = new Map<string, Promise<string>>()
  /** Serialises writes so rows land in the model's order. */
  let queue: Promise<unknown> = Promise.resolve()

  const enqueue = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task)
    queue = next.catch((error) => {
      onStorageError?.(error as Error)
    })
    return next
  }

  const publishDraft = () => {
    if (frame !== undefined) return
    const schedule = typeof requestAnimationFrame === 'function' ? requestAnimationFrame : (callback: () => void) => setTimeout(callback, 16)
    frame = schedule(() => {
      frame = undefined
      // Derived, not stored: the open row and the text of this step so far.
      onDraft?.(assistantId ? { messageId: assistantId, content: stepText, reasoning: stepReasoning } : null)
    })
  }

  /** Text of the current step that arrived before its row existed (the row is created asynchronously). */
  let stepText = ''
  let stepReasoning = ''

  async function openAssistantRow() {
    const row = await addMessage({ threadId, role: 'assistant', content: '', status: 'streaming', model })
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

  const callbacks: LoopCallbacks = {
    onStepStart: (step) => {
      stepText = ''
      stepReasoning = ''
      if (step > 1) enqueue(openAssistantRow)
    },
    onTextDelta: (text) => {
      stepText += text
      writer?.appendText(text)
      publishDraft()
    },
    onReasoningDelta: (text) => {
      stepReasoning += text
      writer?.appendReasoning(text)
      publishDraft()
    },
    onToolCallStreaming: (call) => {
      // The card shows "queued" as soon as the model names the tool.
      enqueue(async () => {
        await writer?.flush()
      })
      ensureToolRow(call.id, call.name)
    },
    onAssistantMessage: async (message, info) => {
      // The row of this step may still be being created.
      await queue
      const currentWriter = writer
      const id = assistantId
      if (!currentWriter || !id) return
      const patch: Partial<MessageRecord> = {
        status: 'complete',
        toolCalls: message.tool_calls?.length ? message.tool_calls : undefined,
        usage: info.usage,
      }
      if (message.content !== null) patch.content = message.content
      // Stored before the tools run; the tool rows come right after it.
      await enqueue(() => currentWriter.finalise(patch))
      for (const call of message.tool_calls ?? []) ensureToolRow(call.id, call.function.name, call.function.arguments)
      await queue
      writer = undefined
      assistantId = undefined
      publishDraft()
    },
    onToolCallStart: (call) => {
      updateToolRow(call.id, call.function.name, { toolStatus: 'running', status: 'pending', toolArguments: call.function.arguments, startedAt: Date.now() })
    },
    onToolCallStatus: (callId, text) => {
      const row = toolRows.get(callId)
      if (row) enqueue(async () => updateMessage(await row, { toolStatusText: text }))
    },
    onToolResult: async (result) => {
      await updateToolRow(result.callId, result.name, {
        status: 'complete',
        toolStatus: toolStatusOf(result),
        toolArguments: result.arguments,
        content: result.content,
        toolResultFull: result.fullContent,
        truncated: result.truncated,
        startedAt: result.startedAt,
        finishedAt: result.finishedAt,
        toolStatusText: undefined,
        // The kind tells the card apart ("Timed out" rather than "Failed").
        ...(result.error && result.error.kind !== 'cancelled' && { error: { kind: result.error.kind, message: result.error.message, retryable: false } }),
      })
    },
    onNotice: (notice) => {
      pendingNotice = notice
    },
  }

  return {
    callbacks,
    start: () => enqueue(openAssistantRow),
    currentMessageId: () => assistantId ?? lastAssistantId,
    async finish(result, aborted) {
      await queue
      // A step that never reached onAssistantMessage (failed before streaming) is closed here, once.
      if (writer && assistantId) {
        const id = assistantId
        const currentWriter = writer
        writer = undefined
        assistantId = undefined
        await enqueue(() => currentWriter.finalise({ status: aborted ? 'stopped' : result.finishReason === 'error' ? 'error' : 'complete' }))
        lastAssistantId = id
      }
      const targetId = lastAssistantId
      if (!targetId) return
      const patch: Partial<MessageRecord> = {}
      if (aborted || result.finishReason === 'aborted') patch.status = 'stopped'
      if (result.finishReason === 'error' && result.error) {
        patch.status = 'error'
        patch.error = toStoredError(result.error)
      }
      if (pendingNotice) patch.notice = { kind: pendingNotice.kind, message: pendingNotice.message }
      if (Object.keys(patch).length) await enqueue(() => updateMessage(targetId, patch))
      await queue
      onDraft?.(null)
    },
  }
}
