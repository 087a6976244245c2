import { createId } from './create-id'
import type { PlugboardDatabase } from './database'
import { documentPassageId } from './document-passages'
import type { AttachmentRecord, DocumentPassageRecord, MessageRecord } from './types'

/**
 * Copies the files of `originals` (and the search passages of their documents) onto `copies`, the same messages in
 * a forked chat: fresh attachment ids, the copy's thread and message, the rows' `attachments` lists renamed to
 * match. Runs inside the fork's transaction (attachments and documentPassages included), so a fork has every file
 * or none. Blobs are shared by reference: IndexedDB stores its own copy of each.
 */
export async function copyAttachmentsForFork(
  db: PlugboardDatabase,
  originals: readonly MessageRecord[],
  copies: MessageRecord[],
): Promise<void> {
  const withFiles = originals.map((original, index) => ({ original, copy: copies[index]! })).filter(({ original }) => original.attachments?.length)
  if (withFiles.length === 0) return
  const rows = await db.attachments.where('messageId').anyOf(withFiles.map(({ original }) => original.id)).toArray()
  const newIds = new Map(rows.map(row => [row.id, createId()]))
  const copyOf = new Map(withFiles.map(({ original, copy }) => [original.id, copy]))
  const copiedRows: AttachmentRecord[] = rows.map(row => ({ ...row, id: newIds.get(row.id)!, threadId: copyOf.get(row.messageId)!.threadId, messageId: copyOf.get(row.messageId)!.id }))
  for (const { copy } of withFiles) {
    // a file whose blob is gone keeps its summary under its old id: the list names it, nothing opens
    copy.attachments = copy.attachments!.map(summary => ({ ...summary, id: newIds.get(summary.id) ?? summary.id }))
  }
  const passages = rows.length === 0 ? [] : await db.documentPassages.where('attachmentId').anyOf([...newIds.keys()]).toArray()
  const copiedPassages: DocumentPassageRecord[] = passages.map((passage) => {
    const attachmentId = newIds.get(passage.attachmentId)!
    const threadId = copiedRows.find(row => row.id === attachmentId)!.threadId
    return { ...passage, id: documentPassageId(attachmentId, passage.index), attachmentId, threadId }
  })
  await db.attachments.bulkAdd(copiedRows)
  if (copiedPassages.length > 0) await db.documentPassages.bulkAdd(copiedPassages)
}
