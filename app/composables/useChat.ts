import { computed, shallowRef, toValue, onScopeDispose, watch, type MaybeRefOrGetter } from 'vue'
import type { ChatModel } from '#shared/loop/chat-model'
import type { ToolCallMode } from '#shared/loop/loop-types'
import type { ToolSet } from '#shared/tools/tool-types'
import { addMessage, deleteMessagesAfter, listMessages, toModelMessages, updateMessage } from '~/db/messages'
import type { MessageRecord } from '~/db/types'
import { addEditedMessage, branchAtPromptOf } from '~/db/message-branches'
import { holdThreadLock } from '~/db/thread-lock'
import { getThread } from '~/db/threads'
import { createLoopRecorder, toStoredError, type StreamingDraft } from '~/db/loop-recorder'
import type { LoopEvent } from '#shared/loop/loop-event'
import { describeLoopFailure } from '#shared/loop/loop-failure'
import type { ToolPolicyLookup } from '#shared/loop/tool-approval'
import { getToolPolicies } from '~/utils/chat/tool-policies'
import { setStoredApprovalAnswerer, waitForToolApproval, type ToolApprovalRequest } from '~/utils/chat/tool-approvals'
import { createFrameBatch } from '~/utils/chat/frame-batch'
import { yieldToPageWhenBusy } from '~/utils/chat/yield-to-page'

// The loop engine (stream reader, executor, validator) and the server-chat client load on the first send or
// resume: showing a chat does not need them, and the first screen loads less.
const loadLoop = () => import('#shared/loop/run-chat-loop')
const loadServerChat = () => import('~/utils/chat/server-chat')
// Answering a call left waiting by a reload runs it: loaded when that happens.
const loadStoredApproval = () => import('~/utils/chat/stored-approval')

export interface UseChatOptions {
  /** Builds the model for a request from the current provider settings. */
  createModel: () => ChatModel
  /** The enabled and available tools for a request. */
  getToolSet: (context: { threadId: string, signal?: AbortSignal }) => Promise<ToolSet>
  /** @default () => 'auto' */
  toolCallMode?: () => ToolCallMode
  /** Model label stored on assistant rows. */
  modelLabel?: () => string | undefined
  /** Model requests per send at most. @default 10 */
  maxSteps?: number
  /** Resolves when tool plugins are loaded and tool states hydrated; awaited before each send. */
  ready?: () => Promise<unknown>
  /** Told about store failures (the reply may not be saved). */
  onStorageError?: (error: Error) => void
  /** Hears every LoopEvent after the recorder stored it (the tool registry's `lastError` follows them). */
  onEvent?: (event: LoopEvent, threadId?: string) => void
  /**
   * When it returns a model id, a send runs the chat on the server (OpenRouter with the server's key) and this
   * tab only records its events: closing the tab does not stop the reply. @default () => undefined
   */
  runOnServer?: () => { model: string, apiKey?: string } | undefined
  /** The approval policy of a tool ('auto' | 'ask' | 'never'). @default the user's policies (tool-policies.ts) */
  toolPolicy?: ToolPolicyLookup
}

/**
 * One conversation's send / stop / retry / continue. History lives in Dexie; this only runs the loop and
 * exposes the reply being streamed (`draft`) so the UI can show tokens before the throttled write lands.
 */
export function useChat(threadId: MaybeRefOrGetter<string | undefined>, options: UseChatOptions) {
  const streaming = shallowRef(false)
  const draft = shallowRef<StreamingDraft | null>(null)
  const lastError = shallowRef<string | null>(null)
  let controller: AbortController | undefined
  /** The server job this tab follows, so Stop stops it there. */
  let serverJobId: string | undefined
  const toolPolicy: ToolPolicyLookup = options.toolPolicy ?? (name => getToolPolicies().policyOf(name))
  // Tokens arrive many times per frame: the page re-renders the reply once per frame (the last value wins).
  const draftFrames = createFrameBatch<StreamingDraft | null>(value => (draft.value = value))
  const setDraft = (value: StreamingDraft | null) => (value ? draftFrames.push(value) : (draftFrames.cancel(), draft.value = null))

  async function runLoop(id: string) {
    controller = new AbortController()
    const signal = controller.signal
    streaming.value = true
    lastError.value = null
    const recorder = createLoopRecorder({
      threadId: id,
      model: options.modelLabel?.(),
      onDraft: setDraft,
      onStorageError: (error) => {
        lastError.value = `Could not save the conversation: ${error.message}`
        options.onStorageError?.(error)
      },
    })
    // Tells other tabs this thread is being answered, so their start-up does not mark it interrupted.
    const releaseLock = await holdThreadLock(id)
    try {
      await options.ready?.()
      const [tools, records] = await Promise.all([options.getToolSet({ threadId: id, signal }), listMessages(id)])
      await recorder.start()
      let model: ChatModel
      try {
        model = options.createModel()
      }
      catch (error) {
        await recorder.record({ type: 'fail', steps: 0, error: describeLoopFailure(error) })
        return
      }
      const server = options.runOnServer?.()
      if (server) {
        const { startServerChat, followServerChat } = await loadServerChat()
        serverJobId = await startServerChat({
          threadId: id, model: server.model, apiKey: server.apiKey, messages: toModelMessages(records), tools,
          toolCallMode: options.toolCallMode?.() ?? 'auto', maxSteps: options.maxSteps ?? 10,
          toolPolicies: Object.fromEntries(tools.definitions.map(definition => [definition.function.name, toolPolicy(definition.function.name)])),
        })
        await followServerChat({ threadId: id, jobId: serverJobId, afterId: 0, recorder, tools, onEvent: event => options.onEvent?.(event, id), signal })
        return
      }
      const { runChatLoop } = await loadLoop()
      await runChatLoop({
        model,
        messages: toModelMessages(records),
        tools,
        threadId: id,
        signal,
        maxSteps: options.maxSteps ?? 10,
        toolCallMode: options.toolCallMode?.() ?? 'auto',
        toolPolicy,
        approveToolCall: (call, _tool, context) => waitForToolApproval(call.id, context.signal),
        onEvent: async (event) => {
          await recorder.record(event)
          options.onEvent?.(event, id)
          await yieldToPageWhenBusy()
        },
      })
    }
    catch (error) {
      // Stop while the tools' availability was still being checked: nothing was sent, so nothing to report.
      if (signal.aborted && !recorder.currentMessageId()) return
      // Failures of the loop itself (not of the provider or a tool) still end up on the message, never lost.
      const messageId = recorder.currentMessageId()
      if (messageId) await updateMessage(messageId, { status: 'error', error: toStoredError(error) }).catch(() => {})
      else lastError.value = toStoredError(error).message
    }
    finally {
      releaseLock()
      endStreaming()
    }
  }

  /** Back to idle after a reply ended, however it ended. */
  function endStreaming() {
    streaming.value = false
    draftFrames.cancel()
    draft.value = null
    controller = undefined
    serverJobId = undefined
  }

  /** A chat whose reply the server is still writing (the tab was closed or reloaded): read on from its events. */
  async function resumeServerChat(id: string) {
    const job = (await getThread(id))?.serverJob
    if (!job || streaming.value) return
    controller = new AbortController()
    const signal = controller.signal
    serverJobId = job.id
    streaming.value = true
    const releaseLock = await holdThreadLock(id)
    try {
      const rows = await listMessages(id)
      const recorder = createLoopRecorder({ threadId: id, resumeFrom: rows, resumeStep: job.step, onDraft: setDraft, onStorageError: options.onStorageError })
      await options.ready?.()
      const tools = await options.getToolSet({ threadId: id })
      const { followServerChat, waitingBrowserCalls } = await loadServerChat()
      await followServerChat({ threadId: id, jobId: job.id, afterId: job.lastEventId, recorder, tools, onEvent: event => options.onEvent?.(event, id), signal, waitingCalls: waitingBrowserCalls(rows) })
    }
    catch (error) {
      lastError.value = toStoredError(error).message
    }
    finally {
      releaseLock()
      endStreaming()
    }
  }

  watch(() => toValue(threadId), (id) => {
    // Leaving a chat closes its stream (the server goes on); the chat opened now may have one to read on.
    if (serverJobId) controller?.abort()
    if (id) void resumeServerChat(id)
  }, { immediate: true })

  /** Stores the user's message first, then asks the model. Returns false when nothing was sent. */
  async function send(text: string): Promise<boolean> {
    const id = toValue(threadId)
    const content = text.trim()
    if (!id || !content || streaming.value) return false
    await (await loadStoredApproval()).closeWaitingCalls(id)
    await addMessage({ threadId: id, role: 'user', content, status: 'complete' })
    void runLoop(id)
    return true
  }

  /**
   * Sends an edited copy of a user message and asks the model: a new branch from that point (the old message and
   * its replies stay on theirs). Returns false when nothing was sent.
   */
  async function edit(messageId: string, text: string): Promise<boolean> {
    const id = toValue(threadId)
    if (!id || !text.trim() || streaming.value) return false
    await (await loadStoredApproval()).closeWaitingCalls(id)
    await addEditedMessage(messageId, text)
    void runLoop(id)
    return true
  }

  /** A new reply to the message `messageId` answers, beside the old reply (which stays on its branch). */
  async function regenerate(messageId: string): Promise<boolean> {
    const id = toValue(threadId)
    if (!id || streaming.value) return false
    await (await loadStoredApproval()).closeWaitingCalls(id)
    if (!await branchAtPromptOf(messageId)) return false
    void runLoop(id)
    return true
  }

  /** Aborts the stream and any running tools; the partial reply is kept and marked stopped. */
  function stop() {
    // A chat the server runs is stopped there; its last event ends this tab's stream.
    if (serverJobId) {
      const jobId = serverJobId
      void loadServerChat().then(module => module.stopServerChat(jobId))
    }
    else controller?.abort()
  }

  /** Runs the last user message again: removes what came after it and streams a new reply. */
  async function retry() {
    const id = toValue(threadId)
    if (!id || streaming.value) return
    const records: MessageRecord[] = await listMessages(id)
    const lastUser = [...records].reverse().find(record => record.role === 'user')
    if (!lastUser) return
    await deleteMessagesAfter(id, lastUser.seq)
    void runLoop(id)
  }

  /** After the step cap: let the model go on from the history as it is. */
  async function continueLoop() {
    const id = toValue(threadId)
    if (!id || streaming.value) return
    void runLoop(id)
  }

  /**
   * The user answered a call whose wait did not survive a reload: run (or deny) it here, store its result, and
   * once no call of the turn waits any more, go on with the chat from the stored history.
   */
  async function answerStoredApproval(request: ToolApprovalRequest) {
    const id = toValue(threadId)
    if (request.threadId !== id) throw new Error('Open this chat to answer its tool call.')
    if (streaming.value) throw new Error('Wait until the reply has finished, then answer again.')
    const { findWaitingCall, hasWaitingCalls, runStoredApproval } = await loadStoredApproval()
    const rows = await listMessages(id)
    const waiting = findWaitingCall(rows, request.callId)
    if (!waiting) throw new Error('This call was already answered.')
    controller = new AbortController()
    const signal = controller.signal
    streaming.value = true
    lastError.value = null
    let goOn = false
    const releaseLock = await holdThreadLock(id)
    try {
      const recorder = createLoopRecorder({ threadId: id, resumeFrom: rows, onStorageError: options.onStorageError })
      await options.ready?.()
      const tools = await options.getToolSet({ threadId: id, signal })
      await runStoredApproval({
        threadId: id, ...waiting, answer: request.answer, tools, signal,
        onEvent: async (event) => {
          await recorder.record(event)
          options.onEvent?.(event, id)
          await yieldToPageWhenBusy()
        },
      })
      await recorder.settled()
      goOn = !signal.aborted && !hasWaitingCalls(await listMessages(id))
    }
    catch (error) {
      lastError.value = toStoredError(error).message
    }
    finally {
      releaseLock()
      endStreaming()
    }
    if (goOn) void runLoop(id)
  }
  const unsetAnswerer = setStoredApprovalAnswerer(answerStoredApproval)

  onScopeDispose(() => {
    unsetAnswerer()
    controller?.abort()
  })

  return {
    streaming: computed(() => streaming.value),
    draft,
    lastError,
    send,
    stop,
    retry,
    continueLoop,
    edit,
    regenerate,
  }
}
