import type { H3Event } from 'h3'
import { readBrowserSession } from '../../security/browser-session'
import type { JobRecord, JobStore } from '../store/job-store-types'
import { chatJobStore } from '../store/chat-job-store'

/** The session id of the request; the guard has already refused requests without one on /api/chats. */
export async function requireSessionId(event: H3Event): Promise<string> {
  const session = await readBrowserSession(event)
  if (!session) throw createError({ statusCode: 401, statusMessage: 'Unauthorized', message: 'No session. Reload the app.' })
  return session.id
}

/**
 * The chat job named by the route, when it belongs to the request's session. Another session's job answers 404
 * like a missing one, so ids cannot be probed.
 */
export async function requireOwnChatJob(event: H3Event): Promise<JobRecord> {
  const job = await findOwnChatJob(chatJobStore(), await requireSessionId(event), getRouterParam(event, 'id') ?? '')
  if (!job) throw createError({ statusCode: 404, statusMessage: 'Not Found', message: 'No such chat job.' })
  return job
}

/** The chat job `id` if `sessionId` owns it; undefined for a missing job and for anybody else's alike. */
export async function findOwnChatJob(store: JobStore, sessionId: string, id: string): Promise<JobRecord | undefined> {
  const job = await store.getJob(id)
  return job && job.sessionId === sessionId && job.kind === 'chat' ? job : undefined
}
