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

/**
 * What a failed wait for a stored message can say about the store: its row count, the newest user rows (by createdAt,
 * with their text and time) and whether the page says its chats are kept only in memory.
 */
export function describeStoredMessages(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map(database => `${database.name}@${database.version}`)
    if (!names.some(name => name.startsWith('plugboard@'))) return `no "plugboard" database (databases: ${names.join(', ') || 'none'})`
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('plugboard')
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    try {
      const store = db.transaction('messages').objectStore('messages')
      const count = await new Promise<number>((resolve, reject) => {
        const request = store.count()
        request.onsuccess = () => resolve(request.result)
        request.onerror = () => reject(request.error)
      })
      const newest = await new Promise<string[]>((resolve, reject) => {
        const found: string[] = []
        const request = store.index('createdAt').openCursor(null, 'prev')
        request.onsuccess = () => {
          const cursor = request.result
          if (!cursor || found.length === 5) return resolve(found)
          const row = cursor.value as { role: string, content: unknown, createdAt: number }
          if (row.role === 'user') found.push(`${JSON.stringify(row.content).slice(0, 80)} at ${new Date(row.createdAt).toISOString()}`)
          cursor.continue()
        }
        request.onerror = () => reject(request.error)
      })
      const warning = document.querySelector('[data-testid="storage-warning"]')?.textContent?.trim()
      return `${count} rows stored (databases: ${names.join(', ')}); the newest user rows: ${newest.join('; ') || 'none'}; now ${new Date().toISOString()}${warning ? `; the page says: ${warning}` : ''}`
    }
    finally {
      db.close()
    }
  })
}
