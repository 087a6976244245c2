import { request as httpRequest } from 'node:http'
import type { Browser } from '@playwright/test'
import { installProbe } from './page-probes'

export interface FirstLoadResult {
  scripts: number
  rawKb: number
  gzipKb: number
  brotliKb: number
  /** What the browser transferred (Content-Encoding it negotiated). */
  transferredKb: number
  contentEncoding: string
  cacheControl: string
}

/** The bytes of `url` as sent with `accept-encoding` (not decoded), and the response headers. */
function fetchEncoded(url: string, encoding: string): Promise<{ bytes: number, headers: Record<string, string | string[] | undefined> }> {
  return new Promise((done, fail) => {
    httpRequest(url, { headers: { 'accept-encoding': encoding } }, (response) => {
      let bytes = 0
      response.on('data', (chunk: Buffer) => { bytes += chunk.length })
      response.on('end', () => done({ bytes, headers: response.headers }))
      response.on('error', fail)
    }).on('error', fail).end()
  })
}

/**
 * Opens the app in a fresh browser context and sums the JavaScript it loaded until it was ready for input
 * (`__plugboardReady`): raw, and as the server sends it gzip- and brotli-compressed.
 */
export async function measureFirstLoad(browser: Browser, url: string): Promise<FirstLoadResult> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await installProbe(page, null)
  await page.goto(url, { waitUntil: 'commit' })
  await page.waitForFunction(() => (window as unknown as { __plugboardReady?: boolean }).__plugboardReady === true, undefined, { timeout: 60_000 })
  // Only what was asked for before the page marked itself ready, as `first-load-bytes.ts` and first-load.spec.ts
  // count: chunks fetched after it (the rest of the icons, later catalogs) may or may not have started by the time
  // this runs, which made the figure swing between 241 and 256 KB on one build.
  const all = await page.evaluate(() => {
    const ready = performance.getEntriesByName('plugboard:ready', 'mark')[0]?.startTime ?? Infinity
    return performance.getEntriesByType('resource')
      .map(entry => entry as PerformanceResourceTiming)
      .filter(entry => entry.startTime <= ready && new URL(entry.name).pathname.endsWith('.js'))
      .map(entry => ({ url: entry.name, transferred: entry.encodedBodySize }))
  })
  // A module preloaded and then imported has two entries (the second from the cache, 0 bytes): count it once.
  const entries = [...new Map(all.map(entry => [entry.url, all.filter(other => other.url === entry.url).reduce((a, b) => (a.transferred >= b.transferred ? a : b))])).values()]
  await context.close()
  const result: FirstLoadResult = { scripts: entries.length, rawKb: 0, gzipKb: 0, brotliKb: 0, transferredKb: 0, contentEncoding: '', cacheControl: '' }
  for (const entry of entries) {
    const [raw, gzip, brotli] = await Promise.all(['identity', 'gzip', 'br'].map(encoding => fetchEncoded(entry.url, encoding)))
    result.rawKb += raw!.bytes / 1024
    result.gzipKb += gzip!.bytes / 1024
    result.brotliKb += brotli!.bytes / 1024
    result.transferredKb += entry.transferred / 1024
    if (!result.contentEncoding) result.contentEncoding = `${gzip!.headers['content-encoding'] ?? 'none'} / ${brotli!.headers['content-encoding'] ?? 'none'}`
    if (!result.cacheControl && new URL(entry.url).pathname.startsWith('/_nuxt/')) result.cacheControl = String(raw!.headers['cache-control'] ?? '')
  }
  return result
}
