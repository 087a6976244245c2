import type { Page } from '@playwright/test'

/** The attachment rows as stored in IndexedDB (without their blobs), optionally of one chat. */
export function storedAttachments(page: Page, threadId?: string): Promise<Array<{ id: string, threadId: string, messageId: string, kind: string, name: string, mime: string, size: number, width?: number, height?: number }>> {
  return page.evaluate(async (thread) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('plugboard')
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    try {
      if (!db.objectStoreNames.contains('attachments')) return []
      const rows = await new Promise<Array<Record<string, unknown>>>((resolve, reject) => {
        const request = db.transaction('attachments').objectStore('attachments').getAll()
        request.onsuccess = () => resolve(request.result)
        request.onerror = () => reject(request.error)
      })
      return rows.filter(row => !thread || row.threadId === thread).map(({ blob: _blob, ...row }) => row) as never
    }
    finally {
      db.close()
    }
  }, threadId)
}
