import { StorageError } from '#shared/errors/storage-error'
import { createId } from './create-id'
import { copyAttachmentsForFork } from './fork-attachments'
import { getDatabase, type PlugboardDatabase } from './database'
import type { MessageRecord, ThreadRecord } from './types'

/** The rows from the first one to `row` by parent links, oldest first. */
async function pathTo(db: PlugboardDatabase, row: MessageRecord): Promise<MessageRecord[]> {
  const path = [row]
  let parentId = row.parentId
  while (parentId) {
    const parent = await db.messages.get(parentId)
    if (!parent) break
    path.unshift(parent)
    parentId = parent.parentId
  }
  return path
}

/**
 * A new chat holding a copy of the conversation up to `messageId`: the path to it, and for a reply the rest of its
 * turn on the branch shown (its tool results and later steps, up to the next user message). The copy has its own
 * ids and is one branch, with copies of its files (and their search passages); the original chat is untouched. Resolves with the new thread.
 */
export async function forkThread(messageId: string): Promise<ThreadRecord> {
  const db = getDatabase()
  return db.transaction('rw', [db.threads, db.messages, db.attachments, db.documentPassages], async () => {
    const row = await db.messages.get(messageId)
    const source = row && await db.threads.get(row.threadId)
    if (!row || !source) throw new StorageError('This message no longer exists.', { operation: 'fork chat' })
    const rows = row.onPath
      ? await db.messages.where('[threadId+onPath+seq]').between([row.threadId, 1, 0], [row.threadId, 1, Infinity]).toArray()
      : await pathTo(db, row)
    const end = rows.findIndex(each => each.id === row.id)
    const nextUser = row.role === 'user' ? -1 : rows.findIndex((each, index) => index > end && each.role === 'user')
    const copied = rows.slice(0, row.role === 'user' ? end + 1 : nextUser < 0 ? rows.length : nextUser)
    const now = Date.now()
    const thread: ThreadRecord = {
      id: createId(),
      title: source.title,
      createdAt: now,
      updatedAt: now,
      ...(source.model ? { model: source.model } : {}),
      ...(source.toolChoices ? { toolChoices: { ...source.toolChoices } } : {}),
    }
    let parentId: string | undefined
    const copies = copied.map((original, index): MessageRecord => {
      const { parentId: _parent, ...fields } = original
      const copy: MessageRecord = { ...fields, id: createId(), threadId: thread.id, seq: index + 1, onPath: 1, createdAt: now, updatedAt: now }
      if (parentId) copy.parentId = parentId
      parentId = copy.id
      return copy
    })
    thread.activeLeafId = parentId
    await copyAttachmentsForFork(db, copied, copies)
    await db.threads.add(thread)
    await db.messages.bulkAdd(copies)
    return thread
  })
}
