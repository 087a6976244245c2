import type { H3Event } from 'h3'
import { requireOwner } from '../../accounts/request-owner'
import type { JobRecord, JobStore } from '../store/job-store-types'
import { chatJobStore } from '../store/chat-job-store'
import { userError } from '../../http/user-error'

/**
 * The owner id of the request (`requireOwner`): the browser session's id, or the account's with accounts on. Jobs
 * keep it in their `sessionId` field, so with accounts a job belongs to the account on every device.
 */
export async function requireSessionId(event: H3Event): Promise<string> {
  return (await requireOwner(event)).ownerId
}

/**
 * The chat job named by the route, when it belongs to the request's session. Another session's job answers 404
 * like a missing one, so ids cannot be probed.
 */
export async function requireOwnChatJob(event: H3Event): Promise<JobRecord> {
  const job = await findOwnChatJob(chatJobStore(), (await requireOwner(event)).ownerId, getRouterParam(event, 'id') ?? '')
  if (!job) throw userError(404, 'Not Found', 'server.job.missing')
  return job
}

/** The chat job `id` if `sessionId` owns it; undefined for a missing job and for anybody else's alike. */
export async function findOwnChatJob(store: JobStore, sessionId: string, id: string): Promise<JobRecord | undefined> {
  const job = await store.getJob(id)
  return job && job.sessionId === sessionId && job.kind === 'chat' ? job : undefined
}
