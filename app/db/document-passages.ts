import { getDatabase } from './database'
import type { DocumentPassageRecord } from './types'

/** A passage before it is stored: where it sits in its document and its text. */
export interface DocumentPassageInput {
  page?: number
  text: string
}

/** The id of a document's `index`th passage; zero-padded so the ids of one document sort in reading order. */
export function documentPassageId(attachmentId: string, index: number): string {
  return `${attachmentId}#${String(index).padStart(6, '0')}`
}

/**
 * Stores a document's passages, replacing any it had (attaching the same file again re-indexes it), in one
 * transaction: a reader sees the old passages or the new ones, never half of them.
 */
export async function replaceDocumentPassages(
  document: { attachmentId: string, threadId: string, name: string },
  passages: readonly DocumentPassageInput[],
): Promise<void> {
  const db = getDatabase()
  const rows: DocumentPassageRecord[] = passages.map((passage, index) => ({
    id: documentPassageId(document.attachmentId, index),
    attachmentId: document.attachmentId,
    threadId: document.threadId,
    name: document.name,
    ...(passage.page !== undefined && { page: passage.page }),
    index,
    text: passage.text,
  }))
  await db.transaction('rw', db.documentPassages, async () => {
    await db.documentPassages.where('attachmentId').equals(document.attachmentId).delete()
    await db.documentPassages.bulkPut(rows)
  })
}

/** Removes the passages of one document, of one chat, or of that document in that chat. */
export async function deleteDocumentPassages(scope: { threadId?: string, attachmentId?: string }): Promise<void> {
  const table = getDatabase().documentPassages
  if (scope.attachmentId !== undefined) {
    const rows = table.where('attachmentId').equals(scope.attachmentId)
    await (scope.threadId === undefined ? rows : rows.and(row => row.threadId === scope.threadId)).delete()
  }
  else if (scope.threadId !== undefined) {
    await table.where('threadId').equals(scope.threadId).delete()
  }
}

/** How many passages a chat's documents hold. */
export function countThreadPassages(threadId: string): Promise<number> {
  return getDatabase().documentPassages.where('threadId').equals(threadId).count()
}

/** How many passages a chat holds from documents other than `attachmentId` (which is about to be replaced). */
export async function countOtherThreadPassages(threadId: string, attachmentId: string): Promise<number> {
  return getDatabase().documentPassages.where('threadId').equals(threadId).and(row => row.attachmentId !== attachmentId).count()
}

/** Every passage of a chat's documents, each document's in reading order. */
export function listThreadPassages(threadId: string): Promise<DocumentPassageRecord[]> {
  return getDatabase().documentPassages.where('threadId').equals(threadId).sortBy('id')
}

/**
 * What identifies the current set of a chat's passages without reading their text: their ids, in order. Any
 * change (a document added, replaced or removed, in this tab or another) changes it.
 */
export async function threadPassagesSignature(threadId: string): Promise<string> {
  const keys = await getDatabase().documentPassages.where('threadId').equals(threadId).primaryKeys()
  return `${keys.length}:${keys.sort().join('|')}`
}
