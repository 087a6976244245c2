import { randomUUID } from 'node:crypto'
import type { ChatModel } from '#shared/loop/chat-model'
import type { LoopEvent } from '#shared/loop/loop-event'
import { describeLoopFailure } from '#shared/loop/loop-failure'
import type { ToolCallMode } from '#shared/loop/loop-types'
import { runChatLoop } from '#shared/loop/run-chat-loop'
import { createConversationState, foldLoopEvent, isStepCut, isStepSettled } from '#shared/loop/conversation-state'
import { resumableReply } from '#shared/loop/resume-step'
import { toolSetFromArray } from '#shared/tools/tool-set'
import { withToolSearch } from '#shared/tools/tool-search/with-tool-search'
import type { ExecutableTool, ToolSet } from '#shared/tools/tool-types'
import type { ModelMessage, ToolDefinition } from '#shared/types/chat'
import type { ChatParameters } from '#shared/types/chat-parameters'
import type { ToolApprovalPolicy } from '#shared/types/server-tools'
import { listServerTools } from '../../chat/tool-registry'
import { browserTool } from './browser-tool'
import type { BrowserToolOptions } from './browser-tool'
import { readCutStep } from './cut-step'
import { admitJob } from '../queue/job-admission'
import type { JobLimits } from '../queue/job-admission'
import { createParking } from '../queue/job-parking'
import { jobApproval } from './job-approval'
import { claimJobLease } from './job-lease'
import type { JobLease } from './job-lease'
import type { JobRecord, JobStatus, JobStore } from '../store/job-store-types'
import { LeaseLostError } from './lease-lost-error'
import { forgetRunningJob, trackRunningJob } from './running-jobs'
import type { JobSlot } from '../queue/job-slots'
import { DEFAULT_JOB_WAIT_TIMEOUT_MS } from '../queue/job-wait-timeout'
import { yieldToServing } from './runner-time-slice'

/** A chat to answer on the server, as the browser sent it. */
export interface ChatJobInput {
  /** The browser session that owns the job: only it may read, stop or answer it. */
  sessionId: string
  threadId: string
  messages: ModelMessage[]
  model: ChatModel
  /** Server tools switched on at send time (names); others, and client-only ones, are not offered. */
  serverToolNames: string[]
  /** Browser-only tools switched on at send time: offered, and run by a tab of the session when called. */
  browserTools?: ToolDefinition[]
  /** @default 'auto' */
  toolCallMode?: ToolCallMode
  /** @default 10 */
  maxSteps?: number
  /** The tab's approval policy per tool at send time (see job-approval.ts). */
  toolPolicies?: Record<string, ToolApprovalPolicy>
  /** The chat's sampling parameters, sent with every request of the run. */
  parameters?: ChatParameters
  /** Tool search over the tools above (shared/tools/tool-search): the tab's threshold and always-on tools. */
  toolSearch?: JobToolSearch
}

/** The tab's tool search setting, as a job keeps it. */
export interface JobToolSearch {
  threshold: number
  alwaysOn: string[]
}

/** The job's status once its loop has ended. */
function endStatus(event: LoopEvent | undefined): JobStatus {
  if (event?.type === 'fail') return 'failed'
  if (event?.type === 'finish' && event.finishReason === 'aborted') return 'stopped'
  return 'done'
}

/**
 * What a background chat keeps in `JobRecord.state`, so any instance can run it or take it over: the messages so
 * far (the chat as sent, then every finished step's assistant message and tool results), the model's name and the
 * tool switches at send time. Never a provider key: the worker reads the server's key from its runtime config.
 */
export interface ChatJobState {
  messages: ModelMessage[]
  /** The model's id (OpenRouter), from which the worker builds its ChatModel. */
  modelName: string
  serverToolNames: string[]
  browserTools?: ToolDefinition[]
  toolCallMode?: ToolCallMode
  maxSteps?: number
  toolPolicies?: Record<string, ToolApprovalPolicy>
  parameters?: ChatParameters
  toolSearch?: JobToolSearch
  /** Steps whose messages are in `messages` already: a takeover goes on with the next one. */
  stepsDone: number
  /**
   * The id of the last event of the last saved step: a takeover reads the cut step's events after it (which of its
   * calls started and which ended), so a call cut while it ran is not run again unless it is safe to repeat.
   */
  eventsThrough?: number
}

/** What the queue carries for a chat: only the job id (the rest is in the JobStore, never a key). */
export interface ChatQueueData { kind: 'chat' }

/** A chat to store and queue; like ChatJobInput but naming the model instead of holding one. */
export type ChatJobSpec = Omit<ChatJobInput, 'model'> & {
  modelName: string
  /** The requesting client (a hash of its IP), counted against its cap (job-admission.ts). */
  clientKey?: string
}

/**
 * Stores a background chat's record, status 'queued', with everything the runner needs in its state. With
 * `limits`, a chat that would take its session or client past a cap is refused first (JobLimitError).
 */
export async function createChatJob(store: JobStore, spec: ChatJobSpec, limits?: JobLimits): Promise<JobRecord> {
  const now = Date.now()
  const state: ChatJobState = {
    messages: spec.messages, modelName: spec.modelName, serverToolNames: spec.serverToolNames,
    ...(spec.browserTools ? { browserTools: spec.browserTools } : {}),
    ...(spec.toolCallMode ? { toolCallMode: spec.toolCallMode } : {}),
    ...(spec.maxSteps ? { maxSteps: spec.maxSteps } : {}),
    ...(spec.toolPolicies ? { toolPolicies: spec.toolPolicies } : {}),
    ...(spec.parameters ? { parameters: spec.parameters } : {}),
    ...(spec.toolSearch ? { toolSearch: spec.toolSearch } : {}),
    stepsDone: 0,
  }
  const stateBytes = jsonBytes(state)
  if (limits) await admitJob(store, { sessionId: spec.sessionId, clientKey: spec.clientKey, bytes: stateBytes }, limits)
  const job: JobRecord = {
    id: randomUUID(), sessionId: spec.sessionId, threadId: spec.threadId, kind: 'chat', status: 'queued', createdAt: now, updatedAt: now, state, stateBytes,
    ...(spec.clientKey && { clientKey: spec.clientKey }),
  }
  await store.putJob(job)
  return job
}

/**
 * Starts a background chat in this process, without a queue: stores the job, then runs it without waiting.
 * Resolves with the job record once it is stored. (The server goes through the queue: createChatJob + enqueue.)
 */
export async function startChatJob(store: JobStore, input: ChatJobInput): Promise<JobRecord> {
  const job = await createChatJob(store, { ...input, modelName: '' })
  await store.updateJob(job.id, { status: 'running' })
  void runChatJob(store, job.id, { model: input.model }).catch(error => console.error(`[jobs] chat ${job.id}:`, error))
  return { ...job, status: 'running' }
}

export interface RunChatJobOptions {
  /** The model, or how to make it from the job's state (the worker: the server's key and `state.modelName`). */
  model: ChatModel | ((state: ChatJobState) => ChatModel)
  /** The queue's run number: above 1 the job is taken over and goes on from its last finished step. */
  attempt?: number
  /** The queue's signal (this instance shuts down): the run throws instead of ending, so it runs again elsewhere. */
  signal?: AbortSignal
  /** An id for this instance, written as the record's owner. */
  ownerId?: string
  /** How often the run renews its claim on the job (job-lease.ts). @default 10_000 */
  leaseRenewMs?: number
  /** The queue's slot: given back while the chat waits for a person, taken again before it goes on. */
  slot?: JobSlot
  /** How long a call waits for a person (approval or tab). @default DEFAULT_JOB_WAIT_TIMEOUT_MS */
  waitTimeoutMs?: number
}

const FINISHED: ReadonlySet<JobStatus> = new Set(['done', 'failed', 'stopped', 'interrupted'])

/**
 * What a finished job's record lets go of: its messages (up to the body limit and more after each step) are only
 * for a run that goes on, and none does; the tab has the chat from the events. The record stays for its status.
 */
const FORGET_STATE = { state: undefined, stateBytes: undefined } satisfies Partial<JobRecord>

/** About how many bytes `value` takes as JSON (what the stores keep). */
function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '')
}

/**
 * Runs (or goes on with) a stored chat: shared/'s `runChatLoop` from the messages in the job's state, every
 * LoopEvent appended to the job's stream (the store numbers them after the last appended one, so a takeover's ids
 * go on from there). After each finished step the step's messages are saved into the state, so a takeover resumes
 * after it without running its tool calls again; its step numbers go on too.
 *
 * The run first claims the job (job-lease.ts): every write it makes carries the claim's fencing token, and once a
 * later run claimed the job (a takeover while this one stalled past its queue lock) the store refuses them. The
 * first refusal aborts this run at once: no more events, state or tool runs from it, and no end written for it.
 */
export async function runChatJob(store: JobStore, jobId: string, options: RunChatJobOptions): Promise<void> {
  const job = await store.getJob(jobId)
  if (!job || FINISHED.has(job.status)) return
  const state = job.state as ChatJobState | undefined
  if (!state || !Array.isArray(state.messages)) {
    await store.updateJob(jobId, { status: 'failed', error: 'The job has no chat state.' })
    return
  }
  const attempt = options.attempt ?? 1
  const queueSignal = options.signal
  if (queueSignal?.aborted) throw new ShutdownError()
  const controller = trackRunningJob(jobId)
  const onQueueAbort = () => controller.abort(new Error('This instance is shutting down.'))
  queueSignal?.addEventListener('abort', onQueueAbort, { once: true })
  let offset = state.stepsDone ?? 0
  const maxSteps = state.maxSteps ?? 10
  let messages = [...state.messages]
  let stepsDone = offset
  // The chat as the events left it (conversation-state.ts): a step is saved once its reply and all its calls ended.
  let fold = createConversationState({ messages })
  let last: LoopEvent | undefined
  let lastEventId = state.eventsThrough ?? 0
  let lease: JobLease | undefined
  let stateBytes = job.stateBytes ?? 0
  const saveSettledStep = async () => {
    const step = fold.step
    if (!step || step.number <= stepsDone || !step.message?.tool_calls?.length || isStepCut(fold) || !isStepSettled(fold)) return
    const added = fold.messages.slice(messages.length)
    messages = fold.messages
    stepsDone = step.number
    stateBytes += jsonBytes(added)
    await lease!.updateJob({ state: { ...state, messages, stepsDone, eventsThrough: lastEventId } satisfies ChatJobState, stateBytes })
  }
  const parking = createParking(options.slot, controller.signal)
  /** Appends one event (numbered as a step of the whole chat), folds it in and saves the step once it settled. */
  const record = async (event: LoopEvent) => {
    // A chat that waited for a person goes on only once it holds a runner slot again.
    await parking.ready()
    // Past this turn's share of runner work, wait for the next one: the instance's readers go first.
    await yieldToServing()
    if (queueSignal?.aborted) throw new ShutdownError()
    last = event
    lastEventId = await lease!.appendEvent(event)
    fold = foldLoopEvent(fold, event)
    await saveSettledStep()
  }
  try {
    const claimed = await claimJobLease(store, jobId, { status: 'running', ...(options.ownerId ? { ownerId: options.ownerId } : {}), heartbeatAt: Date.now() }, { renewEveryMs: options.leaseRenewMs })
    if (!claimed) return
    lease = claimed.lease
    const leaseSignal = lease.signal
    leaseSignal.addEventListener('abort', () => controller.abort(leaseSignal.reason), { once: true })
    const writer = lease
    const onWaiting = (waiting: boolean) => parking.waiting(waiting, status => writer.updateJob({ status }).then(() => {}))
    // Stop asked for before this run could hear it (queued, or its instance died): end at once, 'aborted'.
    if (claimed.record.stopRequested) controller.abort(new Error('Stopped by the user.'))
    if (attempt > 1) console.warn(`[jobs] chat ${jobId}: run ${attempt}, going on after step ${offset}`)
    const waitTimeoutMs = options.waitTimeoutMs ?? DEFAULT_JOB_WAIT_TIMEOUT_MS
    const tools = jobTools(jobId, state, { onWaiting, waitTimeoutMs })
    const approval = jobApproval({ jobId, toolPolicies: state.toolPolicies, onWaiting, waitTimeoutMs })
    const threadId = job.threadId ?? jobId
    // A takeover: fold in what the cut run appended after the last saved step. A step whose calls had all ended is
    // saved now; one whose reply was recorded with calls left to end is finished by the loop (none silently twice).
    const cut = attempt > 1 && offset < maxSteps ? await readCutStep(store, jobId, lastEventId, fold) : undefined
    if (cut) {
      fold = cut.state
      lastEventId = cut.lastEventId
      await saveSettledStep()
      offset = stepsDone
    }
    const resume = cut && !isStepSettled(fold) && resumableReply(fold) ? fold : undefined
    if (offset >= maxSteps) {
      last = { type: 'finish', finishReason: 'step-cap', steps: offset }
      await lease.appendEvent(last)
    }
    else {
      await runChatLoop({
        model: typeof options.model === 'function' ? options.model(state) : options.model,
        messages,
        // Tools found by find_tools in the steps saved so far are offered again (a takeover goes on with them).
        tools: state.toolSearch ? withToolSearch(tools.set, { ...state.toolSearch, history: fold.messages }) : tools.set,
        threadId,
        signal: controller.signal,
        maxSteps: maxSteps - offset,
        toolCallMode: state.toolCallMode ?? 'auto',
        ...(state.parameters ? { parameters: state.parameters } : {}),
        ...approval,
        ...(resume ? { resume, isSafeToRepeat: tools.isSafeToRepeat } : {}),
        onEvent: raw => record(shiftStep(raw, offset)),
      })
    }
    if (queueSignal?.aborted) throw new ShutdownError()
    const status = endStatus(last)
    await lease.updateJob({ status, ...(last?.type === 'fail' ? { error: last.error.message } : {}), ...FORGET_STATE })
  }
  catch (error) {
    // Shutting down: leave the job as it is, for the queue to run it again (here after a restart, or elsewhere).
    if (queueSignal?.aborted) throw error instanceof ShutdownError ? error : new ShutdownError()
    // Another run holds the job now: this one writes nothing more, not even its failure.
    if (lease?.lost || LeaseLostError.isInstance(error)) return
    // The store failed under the loop: say so on the stream if it still takes events, and on the record.
    const failure = describeLoopFailure(error)
    console.error(`[jobs] chat ${jobId} failed: ${failure.message}`)
    const write = lease ?? { appendEvent: (event: unknown) => store.appendEvent(jobId, event), updateJob: (patch: Partial<JobRecord>) => store.updateJob(jobId, patch) }
    await write.appendEvent({ type: 'fail', steps: stepsDone, error: failure } satisfies LoopEvent).catch(() => {})
    await write.updateJob({ status: 'failed', error: failure.message, ...FORGET_STATE }).catch(() => {})
  }
  finally {
    lease?.release()
    queueSignal?.removeEventListener('abort', onQueueAbort)
    forgetRunningJob(jobId)
  }
}

class ShutdownError extends Error {
  constructor() {
    super('This instance is shutting down; the job runs again.')
  }
}

/** A resumed run's events, numbered as steps of the whole chat (step N of the run is step offset + N). */
function shiftStep(event: LoopEvent, offset: number): LoopEvent {
  if (offset === 0) return event
  if ('step' in event) return { ...event, step: event.step + offset }
  return { ...event, steps: event.steps + offset }
}

/**
 * The tools as they were switched at send time: registered server tools, then the tab's own tools. A call cut
 * while it ran may run again only when its tool is a server tool with no effect outside the app (`actsOutsideApp`
 * unset): a browser tool may have run in the tab, and any other may have changed something elsewhere.
 */
function jobTools(jobId: string, input: Pick<ChatJobState, 'serverToolNames' | 'browserTools'>, waits: Omit<BrowserToolOptions, 'jobId'>): { set: ToolSet, isSafeToRepeat: (name: string) => boolean } {
  const wanted = new Set(input.serverToolNames)
  const serverTools = listServerTools().filter(tool => wanted.has(tool.name) && tool.runtime !== 'client')
  const serverNames = new Set(serverTools.map(tool => tool.executable.definition.function.name))
  const browser = (input.browserTools ?? [])
    .filter(definition => !serverNames.has(definition.function.name))
    .map(definition => browserTool(definition, { jobId, ...waits }))
  const repeatable = new Set(serverTools.filter(tool => !tool.actsOutsideApp).map(tool => tool.executable.definition.function.name))
  const executables: ExecutableTool[] = [...serverTools.map(tool => tool.executable), ...browser]
  return { set: toolSetFromArray(executables), isSafeToRepeat: name => repeatable.has(name) }
}
