import { addMessage } from '~/db/messages'
import { createThread } from '~/db/threads'
import { setServerJob } from '~/db/server-jobs'
import type { ChatParameters } from '#shared/types/chat-parameters'
import { refusalText } from '#shared/errors/app-messages'
import type { CodedText } from '#shared/errors/coded-text'

/** A workflow as GET /api/workflows lists it (server/utils/workflows/workflow-types.ts). */
export interface WorkflowSummary {
  id: string
  name: string
  systemPrompt: string
  model: string
  tools: string[]
  firstMessage?: string
  createdAt: number
}

/** What the form sends to create one. */
export type WorkflowDraft = Pick<WorkflowSummary, 'name' | 'systemPrompt' | 'model' | 'tools'> & { firstMessage?: string, parameters?: ChatParameters }

/** A refused workflow request: the server's English as `message`, and as a code (`text`) for the user's language. */
export class WorkflowRequestError extends Error {
  constructor(readonly text: CodedText, readonly status: number) {
    super(text.message)
    this.name = 'WorkflowRequestError'
  }
}

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, { ...init, headers: { 'content-type': 'application/json', ...init.headers } })
  const body = await response.json().catch(() => ({})) as T & { message?: string }
  if (!response.ok) throw new WorkflowRequestError(refusalText(body, response.status), response.status)
  return body
}

export async function listWorkflows(): Promise<WorkflowSummary[]> {
  return (await call<{ workflows: WorkflowSummary[] }>('/api/workflows')).workflows
}

/** Names of the tools the server can run in a workflow. */
export async function listServerToolNames(): Promise<string[]> {
  const { tools } = await call<{ tools: { name: string, runtime?: string }[] }>('/api/tools')
  return tools.filter(tool => tool.runtime !== 'client').map(tool => tool.name)
}

export function createWorkflow(draft: WorkflowDraft): Promise<WorkflowSummary> {
  return call('/api/workflows', { method: 'POST', body: JSON.stringify(draft) })
}

export async function deleteWorkflow(id: string): Promise<void> {
  await call(`/api/workflows/${encodeURIComponent(id)}`, { method: 'DELETE' })
}

/**
 * Runs a workflow on the server and records its chat in a new thread, like any chat the server runs: the question
 * and an open reply row are stored first, the thread remembers the job, and opening the thread reads its events.
 * Returns the thread's id. A refused run leaves no thread behind.
 */
export async function runWorkflow(workflow: WorkflowSummary): Promise<string> {
  const thread = await createThread(workflow.name)
  try {
    const { id } = await call<{ id: string }>(`/api/workflows/${encodeURIComponent(workflow.id)}/run`, { method: 'POST', body: JSON.stringify({ threadId: thread.id }) })
    await addMessage({ threadId: thread.id, role: 'user', content: workflow.firstMessage ?? '', status: 'complete' })
    await addMessage({ threadId: thread.id, role: 'assistant', content: '', status: 'streaming', model: workflow.model })
    await setServerJob(thread.id, { id, lastEventId: 0 })
    return thread.id
  }
  catch (error) {
    const { deleteThread } = await import('~/db/threads')
    await deleteThread(thread.id).catch(() => {})
    throw error
  }
}
