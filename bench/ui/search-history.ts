import type { Browser } from '@playwright/test'
import { importChat, longChat } from '../../tests/e2e/support/seed-chat'

export interface SearchHistoryResult {
  messages: number
  /** A word no message holds: every row is read. */
  missMs: number
  /** A phrase only in the oldest message of the oldest chat. */
  oldestHitMs: number
  oldestFound: boolean
  /** The first call of the run (it indexes the 12,000 rows the bench wrote straight into IndexedDB). */
  firstCallMs: number
  /** A full scan of the same rows for the same queries (the search before the index), straight on IndexedDB. */
  fullScanMissMs: number
  fullScanOldestHitMs: number
}

/**
 * `search_chat_history` as the model calls it (the registered tool's handler, from the console API), over a
 * 10,000-message chat plus a 2,000-message one. Median of 5 calls each.
 */
export async function measureSearchHistory(browser: Browser, appUrl: string): Promise<SearchHistoryResult> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(appUrl, { waitUntil: 'commit' })
  await page.waitForFunction(() => (window as unknown as { __plugboardReady?: boolean }).__plugboardReady === true, undefined, { timeout: 60_000 })
  const big = longChat('bench-search-big', 10_000)
  await importChat(page, big)
  await importChat(page, longChat('bench-search-small', 2_000))
  // A string, not a function: tsx would add name helpers (`__name`) the page does not have.
  const time = (query: string) => page.evaluate(`(async (text) => {
    const registry = window.plugboard.registry
    const tool = (await registry.getToolSet({ threadId: 'bench-other' })).get('search_chat_history')
    if (!tool) throw new Error('search_chat_history is not offered')
    const context = { threadId: 'bench-other', callId: 'bench', signal: new AbortController().signal, status: function () {} }
    const times = []
    let result
    for (let run = 0; run < 5; run++) {
      const started = performance.now()
      result = await tool.handler({ query: text }, context)
      times.push(performance.now() - started)
    }
    const first = times[0]
    times.sort((a, b) => a - b)
    return { ms: Math.round(times[2]), firstMs: Math.round(first), found: typeof result !== 'string' }
  })(${JSON.stringify(query)})`) as Promise<{ ms: number, firstMs: number, found: boolean }>
  // What search_chat_history did before its index: every row, newest first, until 8 match (median of 5).
  const fullScan = (query: string) => page.evaluate(`(async (text) => {
    const needle = text.toLocaleLowerCase()
    const db = await new Promise((done, fail) => {
      const request = indexedDB.open('plugboard')
      request.onsuccess = () => done(request.result)
      request.onerror = () => fail(request.error)
    })
    const times = []
    for (let run = 0; run < 5; run++) {
      const started = performance.now()
      await new Promise((done, fail) => {
        const hits = []
        const request = db.transaction('messages').objectStore('messages').index('createdAt').openCursor(null, 'prev')
        request.onsuccess = () => {
          const cursor = request.result
          if (!cursor || hits.length >= 8) return done(hits)
          const row = cursor.value
          if ((row.role === 'user' || row.role === 'assistant') && row.threadId !== 'bench-other' && row.content.toLocaleLowerCase().includes(needle)) hits.push(row)
          cursor.continue()
        }
        request.onerror = () => fail(request.error)
      })
      times.push(performance.now() - started)
    }
    db.close()
    times.sort((a, b) => a - b)
    return Math.round(times[2])
  })(${JSON.stringify(query)})`) as Promise<number>
  const missQuery = 'zebra-quokka-not-in-any-message'
  const oldestQuery = 'Question 1: what is 1 * 7 + 1,'
  const miss = await time(missQuery)
  const oldest = await time(oldestQuery)
  const fullScanMissMs = await fullScan(missQuery)
  const fullScanOldestHitMs = await fullScan(oldestQuery)
  await context.close()
  return { messages: 12_000, missMs: miss.ms, oldestHitMs: oldest.ms, oldestFound: oldest.found, firstCallMs: miss.firstMs, fullScanMissMs, fullScanOldestHitMs }
}
