import { randomUUID } from 'node:crypto'
import type { ChatModel } from '#shared/loop/chat-model'
import type { LoopEvent } from '#shared/loop/loop-event'
import { describeLoopFailure } from '#shared/loop/loop-failure'
import type { ToolCallMode } from '#shared/loop/loop-types'
import { runChatLoop } from '#shared/loop/run-chat-loop'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ExecutableTool } from '#shared/tools/tool-types'
import type { ModelMessage, ToolDefinition } from '#shared/types/chat'
import { listServerTools } from '../chat/tool-registry'
import { browserTool } from './browser-tool'
import type { JobRecord, JobStatus, JobStore } from './job-store-types'
import { forgetRunningJob, trackRunningJob } from './running-jobs'

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
}

/** The job's status once its loop has ended. */
function endStatus(event: LoopEvent | undefined): JobStatus {
  if (event?.type === 'fail') return 'failed'
  if (event?.type === 'finish' && event.finishReason === 'aborted') return 'stopped'
  return 'done'
}

/**
 * Starts a background chat: stores the job, then runs shared/'s `runChatLoop` (the same engine as the tab) in
 * this process without waiting for it. Every LoopEvent is appended to the job's stream, so any tab of the session
 * can read it from any event id on. Resolves with the job record once it is stored.
 */
export async function startChatJob(store: JobStore, input: ChatJobInput): Promise<JobRecord> {
  const now = Date.now()
  const job: JobRecord = { id: randomUUID(), sessionId: input.sessionId, threadId: input.threadId, kind: 'chat', status: 'running', createdAt: now, updatedAt: now }
  await store.putJob(job)
  const controller = trackRunningJob(job.id)
  void runChatJob(store, job, input, controller.signal).finally(() => forgetRunningJob(job.id))
  return job
}

async function runChatJob(store: JobStore, job: JobRecord, input: ChatJobInput, signal: AbortSignal): Promise<void> {
  let last: LoopEvent | undefined
  try {
    await runChatLoop({
      model: input.model,
      messages: input.messages,
      tools: toolSetFromArray(jobTools(job.id, input, store)),
      threadId: input.threadId,
      signal,
      maxSteps: input.maxSteps ?? 10,
      toolCallMode: input.toolCallMode ?? 'auto',
      onEvent: async (event) => {
        last = event
        await store.appendEvent(job.id, event)
      },
    })
    const status = endStatus(last)
    await store.updateJob(job.id, { status, ...(last?.type === 'fail' ? { error: last.error.message } : {}) })
  }
  catch (error) {
    // The store failed under the loop: say so on the stream if it still takes events, and on the record.
    const failure = describeLoopFailure(error)
    console.error(`[jobs] chat ${job.id} failed: ${failure.message}`)
    await store.appendEvent(job.id, { type: 'fail', steps: 0, error: failure } satisfies LoopEvent).catch(() => {})
    await store.updateJob(job.id, { status: 'failed', error: failure.message }).catch(() => {})
  }
}

/** The tools as they were switched at send time: registered server tools, then the tab's own tools. */
function jobTools(jobId: string, input: ChatJobInput, store: JobStore): ExecutableTool[] {
  const wanted = new Set(input.serverToolNames)
  const server = listServerTools().filter(tool => wanted.has(tool.name) && tool.runtime !== 'client').map(tool => tool.executable)
  const serverNames = new Set(server.map(tool => tool.definition.function.name))
  const onWaiting = (waiting: boolean) => store.updateJob(jobId, { status: waiting ? 'paused' : 'running' }).then(() => {})
  const browser = (input.browserTools ?? [])
    .filter(definition => !serverNames.has(definition.function.name))
    .map(definition => browserTool(definition, { jobId, onWaiting }))
  return [...server, ...browser]
}
