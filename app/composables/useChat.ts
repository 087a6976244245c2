import { computed, shallowRef, toValue, onScopeDispose, watch, type MaybeRefOrGetter } from 'vue'
import type { ChatModel } from '#shared/loop/chat-model'
import type { ToolSet } from '#shared/tools/tool-types'
import type { ModelMessage, ToolCall } from '#shared/types/chat'
import { deleteMessagesAfter, listMessages, toModelMessages, updateMessage } from '~/db/messages'
import type { MessageRecord } from '~/db/types'
import { addMessageWithAttachments, type AttachmentDraft } from '~/db/attachments'
import { attachmentContentsOf } from '~/utils/chat/attachments/attachment-history'
import { indexMessageDocuments } from './index-message-documents'
import { addEditedMessage, branchAtPromptOf } from '~/db/message-branches'
import { claimThreadLock } from '~/db/thread-lock'
import { getThread } from '~/db/threads'
import { getServerJob } from '~/db/server-jobs'
import { createLoopRecorder, toStoredError, type LoopRecorder, type LoopRecorderOptions, type StreamingDraft } from '~/db/loop-recorder'
import { describeLoopFailure } from '#shared/loop/loop-failure'
import type { ApproveToolCall, ToolApprovalAnswer, ToolPolicyLookup } from '#shared/loop/tool-approval'
import { getToolPolicies } from '~/utils/chat/approvals/tool-policies'
import { setStoredApprovalAnswerer, waitForToolApproval, type ToolApprovalRequest } from '~/utils/chat/approvals/tool-approvals'
import { createFrameBatch } from '~/utils/chat/scheduling/frame-batch'
import { yieldToPageWhenBusy } from '~/utils/chat/scheduling/yield-to-page'
import { findCutReply } from '~/utils/chat/message-list/cut-reply'
import { CONTINUE_INSTRUCTION } from '#shared/loop/continue-reply'
import { withSystemPrompt } from '#shared/loop/chat-settings'
import { useReplyElsewhere } from './useReplyElsewhere'
import { REPLY_ELSEWHERE, type RunBody, type RunContext, type UseChatOptions } from './chat-run-types'
import { mcpAppModelContextMessage } from '~/utils/chat/mcp-apps/mcp-app-model-context'

// The loop engine (stream reader, executor, validator) and the server-chat client load on the first send or
// resume: showing a chat does not need them, and the first screen loads less.
const loadLoop = () => import('#shared/loop/run-chat-loop')
const loadServerChat = () => import('~/utils/chat/server-chats/server-chat')
// Answering a call left waiting by a reload runs it: loaded when that happens.
const loadStoredApproval = () => import('~/utils/chat/approvals/stored-approval')


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
  // The tab that holds a chat writes its reply; this one shows it from Dexie, and follows a server job once free.
  const elsewhere = useReplyElsewhere(threadId, { onEnd: id => void resumeServerChat(id) })
  const onStorageError = (error: Error) => {
    lastError.value = `Could not save the conversation: ${error.message}`
    options.onStorageError?.(error)
  }

  /**
   * The one scaffold of every way to run (send, retry, continue, an approval answer, following a server job): it
   * holds the thread, owns Stop, and whatever fails, keeps what was received and says what went wrong.
   * `prepare` runs first, inside the hold (e.g. storing the user's message) and is awaited by the caller;
   * resolves undefined when a reply is running already, here or in another tab, else with the run's end.
   */
  async function startRun(id: string, body: RunBody, prepare?: () => Promise<unknown>): Promise<{ done: Promise<void> } | undefined> {
    if (streaming.value || elsewhere.busy.value) return undefined
    streaming.value = true
    // Held for the whole run: no other tab starts a reply in this chat, and none marks this one interrupted.
    const releaseLock = await claimThreadLock(id)
    if (!releaseLock) {
      streaming.value = false
      void elsewhere.notice(id)
      return undefined
    }
    lastError.value = null
    const run = new AbortController()
    controller = run
    const finish = () => {
      releaseLock()
      endStreaming()
    }
    try {
      await prepare?.()
    }
    catch (error) {
      finish()
      throw error
    }
    let reply: LoopRecorder | undefined
    const context: RunContext = {
      id,
      signal: run.signal,
      recordReply: extra => (reply = createLoopRecorder({ threadId: id, model: options.modelLabel?.(), onDraft: setDraft, onStorageError, ...extra })),
      recordOn: (rows, extra) => createLoopRecorder({ threadId: id, resumeFrom: rows, onDraft: setDraft, onStorageError, ...extra }),
      listener: recorder => async (event) => {
        await recorder.record(event)
        options.onEvent?.(event, id)
        await yieldToPageWhenBusy()
      },
    }
    const done = (async () => {
      try {
        await body(context)
      }
      catch (error) {
        const messageId = reply?.currentMessageId()
        // Stop while the tools' availability was still being checked: nothing was sent, so nothing to report.
        if (run.signal.aborted && !messageId) return
        // Failures of the loop itself (not of the provider or a tool) still end up on the message, never lost.
        if (messageId) await updateMessage(messageId, { status: 'error', error: toStoredError(error) }).catch(() => {})
        else lastError.value = toStoredError(error).message
      }
      finally {
        finish()
      }
    })()
    return { done }
  }

  /** Back to idle after a reply ended, however it ended. */
  function endStreaming() {
    streaming.value = false
    draftFrames.cancel()
    draft.value = null
    controller = undefined
    serverJobId = undefined
  }

  /**
   * Asks the model about the stored history (plus `extraMessages`, sent but never stored) and records the reply, in
   * this tab or through a server job. `recorder` writes on a row that exists (Continue); by default a new row.
   */
  async function askModel(run: RunContext, more: { extraMessages?: ModelMessage[], recorder?: Partial<LoopRecorderOptions> } = {}) {
    const { id, signal } = run
    // The chat's own system prompt, parameters and model (Chat settings, or the preset it started from).
    const { systemPrompt, parameters, chatModel } = await getThread(id) ?? {}
    const server = options.runOnServer?.()
    // a server-run reply's rows are written with each checkpoint of the job (followServerChat), never on their own
    const recorder = run.recordReply({ ...(chatModel && { model: chatModel }), ...(server && { writeIntervalMs: Number.POSITIVE_INFINITY }), ...more.recorder })
    await options.ready?.()
    const [tools, records] = await Promise.all([options.getToolSet({ threadId: id, signal }), listMessages(id)])
    await recorder.start()
    let model: ChatModel
    try {
      model = options.createModel(chatModel)
    }
    catch (error) {
      await recorder.record({ type: 'fail', steps: 0, error: describeLoopFailure(error) })
      return
    }
    // Images go as parts to a model that reads them; otherwise the user's message gets a note saying they were left out.
    const userContent = await attachmentContentsOf(records, { acceptsImages: () => options.readsImages?.(chatModel) ?? Promise.resolve(true) })
    const appContext = mcpAppModelContextMessage(id, records)
    const messages = withSystemPrompt([...toModelMessages(records, { userContent }), ...(more.extraMessages ?? []), ...(appContext ? [appContext] : [])], systemPrompt)
    if (server) {
      const { startServerChat, followServerChat } = await loadServerChat()
      serverJobId = await startServerChat({
        threadId: id, model: chatModel ?? server.model, apiKey: server.apiKey, messages, tools, parameters,
        toolCallMode: options.toolCallMode?.() ?? 'auto', maxSteps: options.maxSteps ?? 10,
        toolPolicies: Object.fromEntries(tools.definitions.map(definition => [definition.function.name, toolPolicy(definition.function.name)])),
      })
      await followServerChat({ threadId: id, jobId: serverJobId, afterId: 0, recorder, tools, onEvent: event => options.onEvent?.(event, id), signal })
      return
    }
    const { runChatLoop } = await loadLoop()
    await runChatLoop({ model, messages, parameters, ...loopOptions(run, tools, recorder) })
  }

  /** What every run of the loop in this tab shares; `approve` answers a call whose policy is 'ask'. */
  function loopOptions(run: RunContext, tools: ToolSet, recorder: LoopRecorder, approve: (call: ToolCall, signal: AbortSignal) => Promise<ToolApprovalAnswer> = (call, signal) => waitForToolApproval(call.id, signal)) {
    return {
      tools,
      threadId: run.id,
      signal: run.signal,
      maxSteps: options.maxSteps ?? 10,
      toolCallMode: options.toolCallMode?.() ?? 'auto',
      toolPolicy,
      approveToolCall: ((call, _tool, context) => approve(call, context.signal)) satisfies ApproveToolCall,
      onEvent: run.listener(recorder),
    }
  }

  /** A chat whose reply the server is still writing (the tab was closed or reloaded): read on from its events. */
  async function resumeServerChat(id: string) {
    const job = await getServerJob(id)
    if (!job || streaming.value) return
    await startRun(id, async (run) => {
      serverJobId = job.id
      const rows = await listMessages(id)
      const recorder = run.recordOn(rows, { resumeStep: job.step, writeIntervalMs: Number.POSITIVE_INFINITY })
      await options.ready?.()
      const tools = await options.getToolSet({ threadId: id })
      const { followServerChat, waitingBrowserCalls } = await loadServerChat()
      await followServerChat({ threadId: id, jobId: job.id, afterId: job.lastEventId, recorder, tools, onEvent: event => options.onEvent?.(event, id), signal: run.signal, waitingCalls: waitingBrowserCalls(rows) })
    })
  }

  watch(() => toValue(threadId), (id) => {
    // Leaving a chat closes its stream (the server goes on); the chat opened now may have one to read on.
    if (serverJobId) controller?.abort()
    if (id) void resumeServerChat(id)
  }, { immediate: true })

  /**
   * Stores the user's message (with its attachments, in one transaction) first, then asks the model. Returns false
   * when nothing was sent.
   */
  async function send(text: string, attachments: readonly AttachmentDraft[] = []): Promise<boolean> {
    const id = toValue(threadId)
    const content = text.trim()
    if (!id || (!content && attachments.length === 0)) return false
    const started = await startRun(id, askModel, async () => {
      await (await loadStoredApproval()).closeWaitingCalls(id)
      const message = await addMessageWithAttachments({ threadId: id, role: 'user', content, status: 'complete' }, attachments)
      // the model can search the documents from its first step
      await indexMessageDocuments(message, attachments)
    })
    return !!started
  }

  /**
   * Sends an edited copy of a user message and asks the model: a new branch from that point (the old message and
   * its replies stay on theirs). Returns false when nothing was sent.
   */
  async function edit(messageId: string, text: string): Promise<boolean> {
    const id = toValue(threadId)
    if (!id || !text.trim()) return false
    const started = await startRun(id, askModel, async () => {
      await (await loadStoredApproval()).closeWaitingCalls(id)
      await addEditedMessage(messageId, text)
    })
    return !!started
  }

  /** A new reply to the message `messageId` answers, beside the old reply (which stays on its branch). */
  async function regenerate(messageId: string): Promise<boolean> {
    const id = toValue(threadId)
    if (!id) return false
    let branched = false
    const started = await startRun(id, async (run) => {
      if (branched) await askModel(run)
    }, async () => {
      await (await loadStoredApproval()).closeWaitingCalls(id)
      branched = !!await branchAtPromptOf(messageId)
    })
    return !!started && branched
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
    if (!id) return
    const records: MessageRecord[] = await listMessages(id)
    const lastUser = records.findLast(record => record.role === 'user')
    if (!lastUser) return
    await startRun(id, askModel, () => deleteMessagesAfter(id, lastUser.seq))
  }

  /**
   * Continue: a reply cut by a reload, a crash or Stop keeps its text and the model is asked to write the rest into
   * the same reply; after the step cap (or a cut that had finished its text and called tools), the model goes on
   * from the history as it is.
   */
  async function continueLoop() {
    const id = toValue(threadId)
    if (!id) return
    await startRun(id, async (run) => {
      const cut = findCutReply(await listMessages(id))
      if (!cut) return askModel(run)
      // Nothing written yet: the reply is simply asked for again, into the same row.
      const extraMessages = cut.content.trim() ? [{ role: 'user' as const, content: CONTINUE_INSTRUCTION }] : []
      return askModel(run, { extraMessages, recorder: { continueRow: cut } })
    })
  }

  /**
   * The user answered a call whose wait did not survive a reload: the loop resumes that step from its stored rows
   * (`runChatLoop({ resume })`), the answered call decided as the user said, any other call left waiting asking its
   * card again, and then goes on with the chat as a send would.
   */
  async function answerStoredApproval(request: ToolApprovalRequest) {
    const id = toValue(threadId)
    if (request.threadId !== id) throw new Error('Open this chat to answer its tool call.')
    if (streaming.value) throw new Error('Wait until the reply has finished, then answer again.')
    const { storedResume } = await loadStoredApproval()
    const rows = await listMessages(id)
    const stored = storedResume(rows, request.callId)
    if (!stored) throw new Error('This call was already answered.')
    const started = await startRun(id, async (run) => {
      const { systemPrompt, parameters, chatModel } = await getThread(id) ?? {}
      const recorder = run.recordOn(rows, { model: chatModel ?? options.modelLabel?.() })
      await options.ready?.()
      const [tools, { runChatLoop }] = await Promise.all([options.getToolSet({ threadId: id, signal: run.signal }), loadLoop()])
      await runChatLoop({
        ...stored,
        messages: withSystemPrompt(stored.messages, systemPrompt),
        parameters,
        ...loopOptions(run, tools, recorder, (call, signal) => (call.id === request.callId ? Promise.resolve(request.answer) : waitForToolApproval(call.id, signal))),
        // Built at the first request: a model that cannot be built fails that request, after the answer was stored.
        model: { stream: modelRequest => options.createModel(chatModel).stream(modelRequest) },
      })
    })
    if (!started) throw new Error(elsewhere.busy.value ? `${REPLY_ELSEWHERE}; answer again when it has finished.` : 'Wait until the reply has finished, then answer again.')
    await started.done
  }
  const unsetAnswerer = setStoredApprovalAnswerer(answerStoredApproval)

  onScopeDispose(() => {
    unsetAnswerer()
    controller?.abort()
  })

  return {
    streaming: computed(() => streaming.value),
    /** Another tab is writing a reply in this chat: nothing may be started here until it ends. */
    busyElsewhere: elsewhere.busy,
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
