import type { Page } from '@playwright/test'

export interface StoredRow { role: string, status: string, content: string, seq: number }

/**
 * The open chat's rows as stored in IndexedDB, in order. The list on screen is virtual (turns scrolled out of view
 * are not in the page), so a test that checks the whole chat reads the store.
 */
export function storedRows(page: Page): Promise<StoredRow[]> {
  return page.evaluate(async () => {
    const threadId = new URL(location.href).searchParams.get('thread')
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('plugboard')
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    const rows = await new Promise<StoredRow[]>((resolve, reject) => {
      const request = db.transaction('messages').objectStore('messages').getAll()
      request.onsuccess = () => resolve(request.result as StoredRow[])
      request.onerror = () => reject(request.error)
    })
    db.close()
    return rows.filter(row => (row as unknown as { threadId: string }).threadId === threadId)
      .sort((a, b) => a.seq - b.seq)
      .map(({ role, status, content, seq }) => ({ role, status, content, seq }))
  })
}
