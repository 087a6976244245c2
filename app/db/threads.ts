import { StorageError } from '#shared/errors/storage-error'
import { createId } from './create-id'
import { getDatabase } from './database'
import type { ThreadRecord } from './types'

/** The title a thread has until its first user message names it. */
export const DEFAULT_THREAD_TITLE = 'New chat'

/** Creates an empty thread and returns it. */
export async function createThread(title = DEFAULT_THREAD_TITLE): Promise<ThreadRecord> {
  const now = Date.now()
  const thread: ThreadRecord = { id: createId(), title: title.trim() || DEFAULT_THREAD_TITLE, createdAt: now, updatedAt: now }
  await getDatabase().threads.add(thread)
  return thread
}

/** Renames a thread. The title is trimmed; an empty title is refused with a RangeError. */
export async function renameThread(id: string, title: string): Promise<void> {
  const trimmed = title.trim()
  if (!trimmed) throw new RangeError('A chat title cannot be empty.')
  // Renaming does not move the thread in the list: updatedAt means "last message".
  // Marked as the user's: a title the model writes later never replaces it.
  const updated = await getDatabase().threads.update(id, { title: trimmed, titleByUser: true })
  if (!updated) throw new StorageError(`Chat ${id} does not exist.`, { operation: 'rename thread' })
}

/**
 * Puts a title the model wrote on a thread, unless the user has named it since (or the thread is gone). Resolves
 * whether it was put.
 */
export async function setGeneratedTitle(id: string, title: string): Promise<boolean> {
  const trimmed = title.trim()
  if (!trimmed) return false
  const db = getDatabase()
  return db.transaction('rw', db.threads, async () => {
    const thread = await db.threads.get(id)
    if (!thread || thread.titleByUser) return false
    await db.threads.update(id, { title: trimmed })
    return true
  })
}

/** Pins a thread to the top of the list, or unpins it. Its place among the others (last activity) is kept. */
export async function setThreadPinned(id: string, pinned: boolean): Promise<void> {
  const db = getDatabase()
  const updated = await db.threads.where('id').equals(id).modify((thread: ThreadRecord) => {
    if (pinned) thread.pinned = Date.now()
    else delete thread.pinned
  })
  if (!updated) throw new StorageError(`Chat ${id} does not exist.`, { operation: pinned ? 'pin thread' : 'unpin thread' })
}

/** Deletes a thread and all of its messages, atomically. */
export async function deleteThread(id: string): Promise<void> {
  const db = getDatabase()
  await db.transaction('rw', [db.threads, db.messages, db.attachments, db.documentPassages, db.serverJobs], async () => {
    await db.serverJobs.delete(id)
    await db.messages.where('threadId').equals(id).delete()
    await db.attachments.where('threadId').equals(id).delete()
    await db.documentPassages.where('threadId').equals(id).delete()
    await db.threads.delete(id)
  })
}

/** All threads, most recently active first. */
export function listThreads(): Promise<ThreadRecord[]> {
  return getDatabase().threads.orderBy('updatedAt').reverse().toArray()
}

/** One thread, or undefined. */
export function getThread(id: string): Promise<ThreadRecord | undefined> {
  return getDatabase().threads.get(id)
}

/** The threads whose title contains `query`, ignoring case and surrounding spaces; all of them for an empty query. */
export function filterThreads(threads: readonly ThreadRecord[], query: string): ThreadRecord[] {
  const needle = query.trim().toLocaleLowerCase()
  if (!needle) return [...threads]
  return threads.filter(thread => thread.title.toLocaleLowerCase().includes(needle))
}

/** Marks a thread as just active (moves it to the top), optionally changing other fields at the same time. */
export async function touchThread(id: string, patch: Partial<Omit<ThreadRecord, 'id'>> = {}): Promise<void> {
  await getDatabase().threads.update(id, { ...patch, updatedAt: patch.updatedAt ?? Date.now() })
}

/** How many threads hold at least one message, leaving out `excludeThreadId` (usually the open one). */
export async function countThreadsWithMessages(excludeThreadId?: string): Promise<number> {
  const threadIds = await getDatabase().messages.orderBy('threadId').uniqueKeys()
  return threadIds.filter(threadId => threadId !== excludeThreadId).length
}
