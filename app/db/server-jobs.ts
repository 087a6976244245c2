import { getDatabase } from './database'
import type { ServerJobRecord } from './types'

/** The job a thread follows, without its thread id. */
export type ServerJob = Omit<ServerJobRecord, 'threadId'>

/** The server job a chat follows (a reply the server is writing), or undefined. */
export async function getServerJob(threadId: string): Promise<ServerJob | undefined> {
  const row = await getDatabase().serverJobs.get(threadId)
  if (!row) return undefined
  const { threadId: _thread, ...job } = row
  return job
}

/**
 * Remembers the job a chat follows and the last of its events recorded (`undefined`: none, the run ended). A chat
 * deleted meanwhile keeps no job: the tab that deleted it stores what it recorded as it leaves, after the delete.
 */
export async function setServerJob(threadId: string, job: ServerJob | undefined): Promise<void> {
  const db = getDatabase()
  if (!job) return void await db.serverJobs.delete(threadId)
  if (await db.threads.get(threadId)) await db.serverJobs.put({ ...job, threadId })
}

/** Which of these chats follow a server job. */
export async function threadsWithServerJobs(threadIds: readonly string[]): Promise<Set<string>> {
  const rows = await getDatabase().serverJobs.bulkGet([...threadIds])
  return new Set(rows.flatMap(row => (row ? [row.threadId] : [])))
}
