import { StorageError } from '#shared/errors/storage-error'
import { newestLeafUnder, setActivePath, siblingsOf, subtreeOf } from './active-path'
import { getDatabase, type PlugboardDatabase } from './database'
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
 * The branch positions of the messages given (those with siblings only), read through the parent index: what the
 * branch switchers of the rows shown need, without reading the rest of the chat.
 */
export async function branchPositions(rows: readonly MessageRecord[]): Promise<Map<string, BranchPosition>> {
  const db = getDatabase()
  const parentIds = [...new Set(rows.map(row => row.parentId).filter((id): id is string => !!id))]
  const children = parentIds.length ? await db.messages.where('parentId').anyOf(parentIds).toArray() : []
  const byParent = new Map<string, MessageRecord[]>()
  for (const child of children) byParent.set(child.parentId!, [...(byParent.get(child.parentId!) ?? []), child])
  const positions = new Map<string, BranchPosition>()
  for (const row of rows) {
    // First rows have no parent to look up by: the thread's first rows are read (only when the window holds one).
    const siblings = row.parentId ? byParent.get(row.parentId) : await siblingsOf(db, row)
    if (!siblings || siblings.length < 2) continue
    const ids = [...siblings].sort((a, b) => a.seq - b.seq).map(sibling => sibling.id)
    positions.set(row.id, { ids, index: ids.indexOf(row.id) })
  }
  return positions
}

/** Shows the branch of `messageId`: the active leaf becomes the newest row under it. */
export async function switchBranch(messageId: string): Promise<void> {
  const db = getDatabase()
  await db.transaction('rw', db.threads, db.messages, async () => {
    const row = await mustGet(db, messageId, 'switch branch')
    await setActivePath(db, row.threadId, (await newestLeafUnder(db, row)).id)
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
 * active leaf. The old message and its replies stay on their branch.
 */
export async function addEditedMessage(messageId: string, text: string): Promise<MessageRecord> {
  const content = text.trim()
  if (!content) throw new RangeError('An edited message cannot be empty.')
  const original = await mustGet(getDatabase(), messageId, 'edit message')
  if (original.role !== 'user') throw new RangeError('Only your own messages can be edited.')
  return addMessage({ threadId: original.threadId, role: 'user', content, status: 'complete', parentId: original.parentId ?? null })
}

/**
 * Deletes a message and everything under it (its branch). When it was on the path shown, the path moves to the
 * newest leaf of the nearest remaining sibling (the one before it, else the one after), or else to its parent.
 * Resolves with the number of rows deleted.
 */
export async function deleteBranch(messageId: string): Promise<number> {
  const db = getDatabase()
  return db.transaction('rw', db.threads, db.messages, async () => {
    const row = await db.messages.get(messageId)
    if (!row) return 0
    const siblings = await siblingsOf(db, row)
    const doomed = await subtreeOf(db, row)
    await db.messages.bulkDelete(doomed.map(each => each.id))
    if (!row.onPath) return doomed.length
    const index = siblings.findIndex(sibling => sibling.id === row.id)
    const next = siblings[index - 1] ?? siblings[index + 1]
    await setActivePath(db, row.threadId, next ? (await newestLeafUnder(db, next)).id : row.parentId)
    return doomed.length
  })
}
