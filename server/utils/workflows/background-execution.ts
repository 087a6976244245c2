import type { ModelMessage } from '#shared/types/chat'
import { executeServerTool, listServerTools } from '../chat/tool-registry'
import type { JobQueue } from '../background-jobs/queue/job-queue'
import type { JobRecord, JobStore } from '../background-jobs/store/job-store-types'
import { createChatJob } from '../background-jobs/runner/stream-handler'
import type { JobLimits } from '../background-jobs/queue/job-admission'
import type { ChatQueueData } from '../background-jobs/runner/stream-handler'
import type { Workflow } from './workflow-types'
import type { CodedText } from '#shared/errors/coded-text'
import { serverText } from '#shared/errors/server-messages'

/** A workflow's tool handler: JSON arguments in, the tool's text out (design 002's workflow-core shape). */
export type WorkflowToolHandler = (argsJson: string) => Promise<string>

/**
 * The server tools a workflow's runs may call, as handlers by name: `listServerTools()` filtered by the workflow's
 * switches, client-only tools left out (the server cannot run them). A handler reports a failure as text, as the
 * loop does with tool failures.
 */
export function workflowToolHandlers(workflow: Pick<Workflow, 'tools'>): Record<string, WorkflowToolHandler> {
  const wanted = new Set(workflow.tools)
  const handlers: Record<string, WorkflowToolHandler> = {}
  for (const tool of listServerTools()) {
    if (!wanted.has(tool.name) || tool.runtime === 'client') continue
    handlers[tool.name] = async (argsJson) => {
      const outcome = await executeServerTool(tool.name, argsJson)
      return outcome.error ? `Error: ${outcome.error}` : outcome.result ?? ''
    }
  }
  return handlers
}

export interface StartWorkflowRunOptions {
  sessionId: string
  threadId: string
  /** Asked instead of the workflow's first message. */
  message?: string
  /** The requesting client (a hash of its IP), counted against its cap. */
  clientKey?: string
  /** The session's and client's caps (job-admission.ts): past them the run is refused with JobLimitError. */
  limits?: JobLimits
}

/** The run has nothing to ask: neither the workflow nor the request gave a first message. */
export class WorkflowRunError extends Error {
  override readonly name = 'WorkflowRunError'
  constructor(readonly text: CodedText) {
    super(text.message)
  }
}

/**
 * Starts a workflow as a background chat: its system prompt and first message (or `message`) become the chat, its
 * model and tool switches the job's, and the job goes through the same queue and runner as any server-run chat
 * (`stream-handler.ts`), so its chat streams into the browser, survives a closed tab and is taken over on Redis.
 */
export async function startWorkflowRun(store: JobStore, queue: JobQueue<ChatQueueData>, workflow: Workflow, options: StartWorkflowRunOptions): Promise<JobRecord> {
  const ask = (options.message ?? workflow.firstMessage ?? '').trim()
  if (!ask) throw new WorkflowRunError(serverText('server.workflow.noFirstMessage', { name: workflow.name }))
  const messages: ModelMessage[] = [
    ...(workflow.systemPrompt.trim() ? [{ role: 'system' as const, content: workflow.systemPrompt }] : []),
    { role: 'user', content: ask },
  ]
  const job = await createChatJob(store, {
    sessionId: options.sessionId, threadId: options.threadId, messages, modelName: workflow.model,
    serverToolNames: Object.keys(workflowToolHandlers(workflow)),
    ...(workflow.parameters && Object.keys(workflow.parameters).length > 0 && { parameters: workflow.parameters }),
    ...(options.clientKey && { clientKey: options.clientKey }),
  }, options.limits)
  try {
    await queue.enqueue(job.id, { kind: 'chat' })
  }
  catch (error) {
    await store.updateJob(job.id, { status: 'failed', error: 'The job could not be queued.' }).catch(() => {})
    throw error
  }
  return job
}
