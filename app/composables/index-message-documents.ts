import { attachmentsOfThread, type AttachmentDraft } from '~/db/attachments'
import { getDatabase } from '~/db/database'
import { updateMessage } from '~/db/messages'
import type { DocumentIndexState, MessageRecord } from '~/db/types'

/**
 * Makes the documents of a stored message searchable (`search_documents`) before the model is asked, and keeps
 * each one's state on the message's list of files, so its chip says "Indexing…", then the pages and passages read,
 * or why it could not be read. A document that fails stays attached; the others go on.
 */
export async function indexMessageDocuments(message: MessageRecord, drafts: readonly AttachmentDraft[]): Promise<void> {
  const documents = drafts.filter(draft => draft.kind === 'document')
  if (documents.length === 0) return
  // the extractors (pdf.js) load with the first document
  const { indexDocument } = await import('~/utils/chat/documents/document-index')
  let summaries = message.attachments ?? []
  const setState = async (ids: readonly string[], index: DocumentIndexState) => {
    summaries = summaries.map(summary => (ids.includes(summary.id) ? { ...summary, index } : summary))
    await updateMessage(message.id, { attachments: summaries })
  }
  await setState(documents.map(document => document.id), { status: 'indexing' })
  for (const document of documents) {
    try {
      const { pages, passages } = await indexDocument({ attachmentId: document.id, threadId: message.threadId, name: document.name, mime: document.mime, blob: document.blob })
      await setState([document.id], { status: 'ready', pages, passages })
    }
    catch (error) {
      await setState([document.id], { status: 'failed', message: error instanceof Error ? error.message : `${document.name} could not be read.` })
    }
  }
}

/**
 * Makes the documents of imported chats searchable again: a history file carries the files, not their passages,
 * so each document is read and split as if it had just been attached (its chip shows the progress). One document
 * at a time, chats in file order.
 */
export async function indexImportedDocuments(threadIds: readonly string[]): Promise<void> {
  for (const threadId of threadIds) {
    const byMessage = new Map<string, AttachmentDraft[]>()
    for (const row of await attachmentsOfThread(threadId)) {
      if (row.kind !== 'document') continue
      byMessage.set(row.messageId, [...(byMessage.get(row.messageId) ?? []), row])
    }
    for (const [messageId, documents] of byMessage) {
      const message = await getDatabase().messages.get(messageId)
      if (message) await indexMessageDocuments(message, documents)
    }
  }
}
