import { StorageError } from '#shared/errors/storage-error'
import { setActivePath, siblingsOf, subtreeOf } from './active-path'
import { getDatabase, type PlugboardDatabase } from './database'
import { createId } from './create-id'
import { addMessage } from './messages'
import type { MessageRecord } from './types'

/** Where a message stands among the rows that share its parent: the `‹ 2/3 ›` of the branch switcher. */
export interface BranchPosition {
  /** The siblings' ids, oldest first (the message included). */
  ids: string[]
  /** The message's place among them, from 0. */
  index: number
}

async function mustGet(db: PlugboardDatabase, messageId: string, operation: string): Promise<MessageRecord> {
  const row = await db.messages.get(messageId)
  if (!row) throw new StorageError('This message no longer exists.', { operation })
  return row
}

/** The rows sharing a message's parent (itself included), oldest first. */
export async function listSiblings(messageId: string): Promise<MessageRecord[]> {
  const db = getDatabase()
  const row = await db.messages.get(messageId)
  return row ? siblingsOf(db, row) : []
}

/**
 * The children of each parent given that has more than one (ids, oldest first): what the branch switchers of the
 * rows shown need. Reads the parent index's keys, and whole rows only for the parents that do branch.
 */
export async function branchingChildren(parentIds: readonly string[]): Promise<Map<string, string[]>> {
  const db = getDatabase()
  const childIds = new Map<string, string[]>()
  if (parentIds.length === 0) return childIds
  await db.messages.where('parentId').anyOf([...parentIds]).eachKey((parentId, cursor) => {
    const key = String(parentId)
    childIds.set(key, [...(childIds.get(key) ?? []), String(cursor.primaryKey)])
  })
  const branching = [...childIds].filter(([, ids]) => ids.length > 1)
  const rows = await db.messages.bulkGet(branching.flatMap(([, ids]) => ids))
  const seqOf = new Map(rows.filter(row => row !== undefined).map(row => [row.id, row.seq]))
  return new Map(branching.map(([parentId, ids]) => [parentId, [...ids].sort((a, b) => (seqOf.get(a) ?? 0) - (seqOf.get(b) ?? 0))]))
}

/** The first rows of a thread (the first message and its edits), oldest first. Reads the thread's rows. */
export async function firstRowIds(threadId: string): Promise<string[]> {
  const rows = await getDatabase().messages.where('[threadId+seq]').between([threadId, 0], [threadId, Infinity]).toArray()
  return rows.filter(row => !row.parentId).map(row => row.id)
}

/** Where `row` stands among its siblings, given its siblings' ids (undefined when it has none). */
export function branchPosition(row: MessageRecord, siblingIds: readonly string[] | undefined): BranchPosition | undefined {
  const index = siblingIds?.indexOf(row.id) ?? -1
  return siblingIds && siblingIds.length > 1 && index >= 0 ? { ids: [...siblingIds], index } : undefined
}

/**
 * Ends the branch shown at the message a reply answers (the nearest user or system row above `messageId`), so the
 * next reply is added beside the old one. Resolves with that message, or undefined when there is none.
 */
export async function branchAtPromptOf(messageId: string): Promise<MessageRecord | undefined> {
  const db = getDatabase()
  return db.transaction('rw', db.threads, db.messages, async () => {
    let row = await db.messages.get(messageId)
    while (row && (row.role === 'assistant' || row.role === 'tool')) row = row.parentId ? await db.messages.get(row.parentId) : undefined
    if (row) await setActivePath(db, row.threadId, row.id)
    return row
  })
}

/** Shows the branch of `messageId`: the active leaf becomes the newest row under it. */
export async function switchBranch(messageId: string): Promise<void> {
  const db = getDatabase()
  await db.transaction('rw', db.threads, db.messages, async () => {
    const row = await mustGet(db, messageId, 'switch branch')
    // The newest row of the subtree is its newest leaf; the path to it runs through the subtree read here.
    const subtree = await subtreeOf(db, row)
    await setActivePath(db, row.threadId, subtree.at(-1)!.id, subtree)
  })
}

/**
 * Ends the branch shown at `messageId` (its descendants stay, on a branch not shown): what comes next is added
 * under it as a new sibling of what followed, as a regenerated reply.
 */
export async function branchAt(messageId: string): Promise<void> {
  const db = getDatabase()
  await db.transaction('rw', db.threads, db.messages, async () => {
    const row = await mustGet(db, messageId, 'start a branch')
    await setActivePath(db, row.threadId, row.id)
  })
}

/**
 * Sends an edited copy of a user message: a new user row beside the old one (same parent), which becomes the
 * active leaf. The old message and its replies stay on their branch. The files it was sent with go with the copy
 * (copied rows: deleting either branch leaves the other's files).
 */
export async function addEditedMessage(messageId: string, text: string): Promise<MessageRecord> {
  const content = text.trim()
  if (!content) throw new RangeError('An edited message cannot be empty.')
  const original = await mustGet(getDatabase(), messageId, 'edit message')
  if (original.role !== 'user') throw new RangeError('Only your own messages can be edited.')
  const edited = { threadId: original.threadId, role: 'user' as const, content, status: 'complete' as const, parentId: original.parentId ?? null }
  if (!original.attachments?.length) return addMessage(edited)
  const db = getDatabase()
  return db.transaction('rw', [db.threads, db.messages, db.attachments], async () => {
    const files = await db.attachments.where('messageId').equals(original.id).toArray()
    const newIds = new Map(files.map(file => [file.id, createId()]))
    const attachments = original.attachments!.filter(summary => newIds.has(summary.id)).map(summary => ({ ...summary, id: newIds.get(summary.id)! }))
    const record = await addMessage({ ...edited, attachments })
    await db.attachments.bulkAdd(files.map(file => ({ ...file, id: newIds.get(file.id)!, messageId: record.id })))
    return record
  })
}

/**
 * Deletes a message and everything under it (its branch). When it was on the path shown, the path moves to the
 * newest leaf of the nearest remaining sibling (the one before it, else the one after), or else to its parent.
 * Resolves with the number of rows deleted.
 */
export async function deleteBranch(messageId: string): Promise<number> {
  const db = getDatabase()
  return db.transaction('rw', [db.threads, db.messages, db.attachments, db.documentPassages], async () => {
    const row = await db.messages.get(messageId)
    if (!row) return 0
    const siblings = await siblingsOf(db, row)
    const doomed = await subtreeOf(db, row)
    await db.messages.bulkDelete(doomed.map(each => each.id))
    // the files sent with the deleted messages go with them, and their documents' passages (no search finds them)
    const files = await db.attachments.where('messageId').anyOf(doomed.map(each => each.id)).primaryKeys()
    await db.attachments.bulkDelete(files)
    await db.documentPassages.where('attachmentId').anyOf(files).delete()
    if (!row.onPath) return doomed.length
    const index = siblings.findIndex(sibling => sibling.id === row.id)
    const next = siblings[index - 1] ?? siblings[index + 1]
    const remaining = next ? await subtreeOf(db, next) : []
    await setActivePath(db, row.threadId, remaining.at(-1)?.id ?? row.parentId, remaining)
    return doomed.length
  })
}
