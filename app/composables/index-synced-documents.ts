import type { AttachmentRecord } from '~/db/types'

let queue: Promise<void> = Promise.resolve()

/**
 * Builds the search passages of a document that sync fetched from the server, so `search_documents` finds it on
 * this device too (passages do not travel: they are rebuilt from the file, as for an imported chat). One document at
 * a time, behind the ones before it; the message is not rewritten (that would sync it back to every device). Other
 * files are left alone; a document that cannot be read is reported in the console and stays attached.
 */
export function indexSyncedDocument(record: AttachmentRecord): Promise<void> {
  if (record.kind !== 'document') return Promise.resolve()
  queue = queue.then(async () => {
    try {
      // the extractors (pdf.js) load with the first document
      const { indexDocument } = await import('~/utils/chat/documents/document-index')
      await indexDocument({ attachmentId: record.id, threadId: record.threadId, name: record.name, mime: record.mime, blob: record.blob })
    }
    catch (error) {
      console.warn(`[sync] the search passages of ${record.name} could not be built`, error)
    }
  })
  return queue
}
