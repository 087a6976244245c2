import { StorageError } from '#shared/errors/storage-error'
import { getDatabase } from './database'
import { addMessage, type NewMessage } from './messages'
import type { AttachmentRecord, AttachmentSummary, MessageRecord } from './types'

/** A file ready to store with a message: an image already resized, a document as the user picked it. */
export type AttachmentDraft = AttachmentSummary & { blob: Blob }

/**
 * Stores a user message and its attachments in one transaction: either the message arrives with every file, or
 * nothing is stored (the composer keeps both). The row lists the files so the list shows them without the blobs.
 */
export async function addMessageWithAttachments(message: NewMessage, drafts: readonly AttachmentDraft[]): Promise<MessageRecord> {
  if (drafts.length === 0) return addMessage(message)
  const db = getDatabase()
  return db.transaction('rw', db.threads, db.messages, db.attachments, async () => {
    const attachments = drafts.map(summaryOf)
    const record = await addMessage({ ...message, attachments })
    const now = Date.now()
    // one millisecond apart: the files keep the order they were attached in
    await db.attachments.bulkAdd(drafts.map((draft, index) => ({ ...summaryOf(draft), blob: draft.blob, threadId: record.threadId, messageId: record.id, createdAt: now + index })))
    return record
  })
}

function summaryOf(draft: AttachmentDraft): AttachmentSummary {
  const { id, kind, name, mime, size, width, height, resourceUri } = draft
  return { id, kind, name, mime, size, ...(width !== undefined && { width }), ...(height !== undefined && { height }), ...(resourceUri && { resourceUri }) }
}

/** One stored attachment (with its blob), or undefined when it was deleted. */
export function getAttachment(id: string): Promise<AttachmentRecord | undefined> {
  return getDatabase().attachments.get(id)
}

/** The attachments of these messages, by message id (blobs included). */
export async function attachmentsOfMessages(messageIds: readonly string[]): Promise<Map<string, AttachmentRecord[]>> {
  const byMessage = new Map<string, AttachmentRecord[]>()
  if (messageIds.length === 0) return byMessage
  const rows = await getDatabase().attachments.where('messageId').anyOf([...messageIds]).toArray()
  for (const row of rows.sort((a, b) => a.createdAt - b.createdAt)) {
    const list = byMessage.get(row.messageId)
    if (list) list.push(row)
    else byMessage.set(row.messageId, [row])
  }
  return byMessage
}

/** Every attachment of a chat (blobs included), oldest first. */
export async function attachmentsOfThread(threadId: string): Promise<AttachmentRecord[]> {
  const rows = await getDatabase().attachments.where('threadId').equals(threadId).toArray()
  return rows.sort((a, b) => a.createdAt - b.createdAt)
}

/** Bytes a chat's attachments take (the per-chat limit is checked against it before storing more). */
export async function attachmentBytesOfThread(threadId: string): Promise<number> {
  let total = 0
  await getDatabase().attachments.where('threadId').equals(threadId).each((row) => {
    total += row.size
  })
  return total
}

/** Removes the attachments of these messages (a deleted branch); resolves with the ids removed. */
export async function deleteAttachmentsOfMessages(messageIds: readonly string[]): Promise<string[]> {
  if (messageIds.length === 0) return []
  const db = getDatabase()
  const ids = await db.attachments.where('messageId').anyOf([...messageIds]).primaryKeys()
  await db.attachments.bulkDelete(ids)
  return ids
}

/** Stores attachment rows as they are (an imported chat's files, ids already fresh). */
export async function putAttachments(rows: readonly AttachmentRecord[]): Promise<void> {
  if (rows.length === 0) return
  try {
    await getDatabase().attachments.bulkPut([...rows])
  }
  catch (error) {
    throw new StorageError(`Could not store ${rows.length} attachment(s): ${(error as Error).message}`, { operation: 'store attachments', cause: error })
  }
}
