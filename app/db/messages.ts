import { Dexie } from 'dexie'
import { StorageError } from '#shared/errors/storage-error'
import { activePathRange, setActivePath, subtreeOf } from './active-path'
import { createId } from './create-id'
import { getDatabase } from './database'
import { DEFAULT_THREAD_TITLE } from './threads'
import type { MessageRecord, ThreadRecord } from './types'

export { toModelMessages, MISSING_TOOL_RESULT } from './model-messages'
export { markInterrupted, TOOL_CLOSED_RESULT } from './mark-interrupted'
export { searchMessages, type MessageSearchHit, type SearchMessagesOptions } from './search-messages'

/** A message to store: the store assigns `seq` and the timestamps; `id` may be chosen by the caller. */
export type NewMessage = Omit<MessageRecord, 'id' | 'seq' | 'createdAt' | 'updatedAt' | 'content' | 'parentId' | 'onPath'> & {
  id?: string
  /** @default '' */
  content?: string
  /**
   * The row it goes under, which starts a new branch when that row already has children; `null` makes it a first
   * row (an edited first message). @default the thread's active leaf (the end of the branch shown)
   */
  parentId?: string | null
}

/** What `updateMessage` may change: everything but the identity and position of the row. */
export type MessagePatch = Partial<Omit<MessageRecord, 'id' | 'threadId' | 'seq' | 'createdAt' | 'parentId' | 'onPath'>>

const TITLE_MAX_LENGTH = 60

/**
 * Stores a message at the end of the branch shown (or under `parentId`) and returns the stored row; it becomes the
 * thread's active leaf. The next `seq` and the leaf are read and written in one transaction, so concurrent calls
 * never share a position and form one chain. Moves the thread to the top of the list, and names a thread still
 * called 'New chat' after its first user message.
 */
export async function addMessage(message: NewMessage): Promise<MessageRecord> {
  const db = getDatabase()
  return db.transaction('rw', db.threads, db.messages, async () => {
    const thread = await db.threads.get(message.threadId)
    if (!thread) throw new StorageError(`Chat ${message.threadId} does not exist.`, { operation: 'add message' })
    const last = await threadRange(message.threadId).last()
    const now = Date.now()
    const { parentId: askedParent, ...fields } = message
    let parentId = askedParent === undefined ? thread.activeLeafId : askedParent ?? undefined
    if (parentId && (await db.messages.get(parentId))?.threadId !== thread.id) {
      if (askedParent !== undefined) throw new StorageError(`Message ${parentId} is not in chat ${thread.id}.`, { operation: 'add message' })
      // The chat's record came from another device before the rows it names (sync brings them in pages): the
      // message goes at the end of the branch this device shows. Refused, the message typed was lost to an error.
      parentId = (await db.messages.where('[threadId+onPath+seq]').between([thread.id, 1, Dexie.minKey], [thread.id, 1, Dexie.maxKey]).last())?.id
        ?? last?.id
    }
    // Under the leaf the branch simply grows; anywhere else the path is worked out again from the parent links.
    const extendsPath = parentId === thread.activeLeafId
    const record: MessageRecord = {
      ...fields,
      id: message.id ?? createId(),
      content: message.content ?? '',
      seq: (last?.seq ?? 0) + 1,
      createdAt: now,
      updatedAt: now,
    }
    if (parentId) record.parentId = parentId
    if (extendsPath) record.onPath = 1
    await db.messages.add(record)
    if (!extendsPath) await setActivePath(db, thread.id, record.id)

    const threadPatch: Partial<ThreadRecord> = { updatedAt: now, activeLeafId: record.id }
    if (record.model) threadPatch.model = record.model
    if (record.role === 'user' && thread.title === DEFAULT_THREAD_TITLE && record.content.trim()) {
      const earlierUserMessage = await db.messages.where('threadId').equals(thread.id)
        .filter(row => row.role === 'user' && row.id !== record.id).first()
      if (!earlierUserMessage) threadPatch.title = titleFromText(record.content)
    }
    await db.threads.update(thread.id, threadPatch)
    return record
  })
}

/** Changes a stored message. Resolves false when there is no such message (it was deleted, e.g. by Retry). */
export async function updateMessage(id: string, patch: MessagePatch): Promise<boolean> {
  const updated = await getDatabase().messages.update(id, { ...patch, updatedAt: Date.now() })
  return updated > 0
}

/** One message, or undefined. */
export function getMessage(id: string): Promise<MessageRecord | undefined> {
  return getDatabase().messages.get(id)
}

/** A thread's active path in order: the messages shown, and the model's history. */
export function listMessages(threadId: string): Promise<MessageRecord[]> {
  return activePathRange(getDatabase(), threadId).toArray()
}

/** How many rows a thread has, all branches (one index count, no row read). */
export function countAllMessages(threadId: string): Promise<number> {
  return getDatabase().messages.where('threadId').equals(threadId).count()
}

/** Every row of a thread, all branches, in creation order (export, delete, search). */
export function listAllMessages(threadId: string): Promise<MessageRecord[]> {
  return threadRange(threadId).toArray()
}

/**
 * Deletes what comes after position `seq` on the active path, with every branch growing from it (Retry keeps the
 * user message and redoes the rest; a taken-over step drops what this tab recorded of it). The leaf goes back to
 * the last row kept; branches beside the path stay. Resolves with the number of rows deleted.
 */
export async function deleteMessagesAfter(threadId: string, seq: number): Promise<number> {
  const db = getDatabase()
  return db.transaction('rw', db.threads, db.messages, async () => {
    const first = await activePathRange(db, threadId, seq, false).first()
    if (!first) return 0
    const doomed = await subtreeOf(db, first)
    await db.messages.bulkDelete(doomed.map(row => row.id))
    await setActivePath(db, threadId, first.parentId)
    return doomed.length
  })
}

/** A short thread title from a message: its first non-empty line, whitespace collapsed, cut at a word. */
export function titleFromText(text: string): string {
  const line = text.split('\n').map(part => part.replace(/\s+/g, ' ').trim()).find(Boolean) ?? DEFAULT_THREAD_TITLE
  if (line.length <= TITLE_MAX_LENGTH) return line
  const cut = line.slice(0, TITLE_MAX_LENGTH)
  const lastSpace = cut.lastIndexOf(' ')
  return `${(lastSpace > TITLE_MAX_LENGTH / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`
}

function threadRange(threadId: string) {
  return getDatabase().messages.where('[threadId+seq]').between([threadId, Dexie.minKey], [threadId, Dexie.maxKey])
}
