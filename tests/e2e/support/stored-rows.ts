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

/**
 * How many of the 50 newest stored messages are questions reading `text` (as sent: trimmed), in any chat. Only the
 * newest, read by the createdAt index: a scan of a 10,000-message store would hold up the page under test. Before the
 * app has made its database there are none: opening it here would make an empty one under the app's name.
 */
export function storedUserMessages(page: Page, text: string): Promise<number> {
  return page.evaluate(async (content) => {
    if (!(await indexedDB.databases()).some(database => database.name === 'plugboard')) return 0
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('plugboard')
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    try {
      if (!db.objectStoreNames.contains('messages')) return 0
      return await new Promise<number>((resolve, reject) => {
        let seen = 0
        let matching = 0
        const request = db.transaction('messages').objectStore('messages').index('createdAt').openCursor(null, 'prev')
        request.onsuccess = () => {
          const cursor = request.result
          if (!cursor || seen === 50) return resolve(matching)
          const row = cursor.value as { role: string, content: string }
          if (row.role === 'user' && row.content === content) matching++
          seen++
          cursor.continue()
        }
        request.onerror = () => reject(request.error)
      })
    }
    finally {
      db.close()
    }
  }, text.trim())
}
