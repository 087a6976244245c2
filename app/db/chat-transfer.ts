import { getDatabase } from './database'
import type { AttachmentRecord, MessageRecord, ThreadRecord } from './types'

/** A chat whole: the thread and every row of every branch, in `seq` order, and the files sent with them. */
export interface ChatRows {
  thread: ThreadRecord
  messages: MessageRecord[]
  attachments?: AttachmentRecord[]
}

/** The chats named (all of them when none is named), most recently active first, for an export. */
export async function readChatsForExport(threadIds?: readonly string[]): Promise<ChatRows[]> {
  const db = getDatabase()
  return db.transaction('r', db.threads, db.messages, db.attachments, async () => {
    const threads = threadIds
      ? (await db.threads.bulkGet([...threadIds])).filter((thread): thread is ThreadRecord => Boolean(thread))
      : await db.threads.orderBy('updatedAt').reverse().toArray()
    return Promise.all(threads.map(async thread => ({
      thread,
      messages: await db.messages.where('[threadId+seq]').between([thread.id, -Infinity], [thread.id, Infinity]).toArray(),
      attachments: (await db.attachments.where('threadId').equals(thread.id).toArray()).sort((a, b) => a.createdAt - b.createdAt),
    })))
  })
}

/**
 * Stores imported chats in one transaction: all of them or, when anything fails (storage full), none. Their ids
 * are fresh (`toStoredChat`), so nothing stored is overwritten.
 */
export async function saveImportedChats(chats: readonly ChatRows[]): Promise<void> {
  const db = getDatabase()
  await db.transaction('rw', db.threads, db.messages, db.attachments, async () => {
    await db.threads.bulkAdd(chats.map(chat => chat.thread))
    await db.messages.bulkAdd(chats.flatMap(chat => chat.messages))
    await db.attachments.bulkAdd(chats.flatMap(chat => chat.attachments ?? []))
  })
}
