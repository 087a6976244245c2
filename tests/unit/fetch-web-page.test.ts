// fetch_web_page as the model uses it: readable text of a page, within its size, time and type limits, against a
// loopback server that the allow-list (NUXT_FETCH_ALLOWED_HOSTS) lets the tool reach.
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { registerBuiltInServerTools } from '~~/server/utils/chat/built-in-server-tools'
import { executeServerTool, getServerTool } from '~~/server/utils/chat/tool-registry'
import { MAX_PAGE_TEXT_CHARS } from '~~/server/utils/chat/tools/fetch-web-page'
import { fetchPublicUrl } from '~~/server/utils/net/fetch-public-url'
import { htmlToReadableText } from '~~/server/utils/net/html-to-readable-text'

const ARTICLE = `<!doctype html><html><head><title>Otters &amp; rivers</title><style>body { color: red }</style>
<script>window.secret = "script text"</script></head><body>
<nav><a href="/">Home</a> <a href="/about">About us</a></nav>
<main><h1>Sea otters</h1><p>Sea otters hold hands while they sleep, so they do not drift apart.</p>
<p>They use <a href="/stones">stones</a> as tools.</p><form><button>Subscribe</button></form></main>
<footer>Copyright footer</footer></body></html>`

/** 8 MB of one letter, gzipped to a few kilobytes. */
const GZIP_BOMB = gzipSync(Buffer.alloc(8 * 1024 * 1024, 'z'))

type Route = (request: IncomingMessage, response: ServerResponse) => void
const routes: Record<string, Route> = {
  '/article': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(ARTICLE)
  },
  '/latin1': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
    response.end(Buffer.from('caf\xe9', 'latin1'))
  },
  '/json': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end('{"ok":true}')
  },
  '/huge': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' })
    // 3 MB, more than the 2 MB read cap
    for (let index = 0; index < 3; index++) response.write('a'.repeat(1024 * 1024))
    response.end()
  },
  '/bomb': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
    response.end(GZIP_BOMB)
  },
  '/image': (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png' })
    response.end(Buffer.alloc(100))
  },
  '/missing': (_request, response) => {
    response.writeHead(404, { 'content-type': 'text/html' })
    response.end('<p>nothing here</p>')
  },
  '/hang': () => {
    stalled()
  },
  '/drip': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' })
    response.write('first bytes…')
    stalled()
  },
}

let server: Server
let origin = ''
let stalled: () => void = () => {}
let disposeTools: () => void = () => {}

beforeAll(async () => {
  server = createServer((request, response) => (routes[request.url ?? ''] ?? routes['/missing']!)(request, response))
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  disposeTools = registerBuiltInServerTools({ fetchAllowedHosts: new URL(origin).host })
})

afterAll(async () => {
  disposeTools()
  server.closeAllConnections()
  await new Promise(done => server.close(done))
})

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const allowedHosts = () => [new URL(origin).host]

describe('fetch_web_page', () => {
  it('is a server-only tool marked as acting outside the app, off until the user switches it on', () => {
    expect(getServerTool('fetch_web_page')).toMatchObject({
      runtime: 'server', actsOutsideApp: true, timeoutMs: 20_000,
      definition: { defaultEnabled: false, ui: { label: 'Fetch web page' }, icon: 'i-lucide-globe', function: { parameters: { required: ['url'] } } },
    })
  })

  it('returns the title, the final URL and the main text, without scripts, styles, menus, forms or footers', async () => {
    const execution = await executeServerTool('fetch_web_page', JSON.stringify({ url: `${origin}/article` }))
    expect(execution.error).toBeUndefined()
    expect(execution.result).toBe(`Title: Otters & rivers\nURL: ${origin}/article\n\nSea otters\n\nSea otters hold hands while they sleep, so they do not drift apart.\n\nThey use stones as tools.`)
  })

  it('refuses an address inside the server\'s network that is not on the allow-list', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const execution = await executeServerTool('fetch_web_page', JSON.stringify({ url: `http://127.0.0.1:${Number(new URL(origin).port) + 1}/` }))
    expect(execution.error).toMatch(/Refused to fetch .*127\.0\.0\.1 is a loopback address/)
  })

  it('cuts long page text to 20 000 characters and says the page was larger than the download cap', async () => {
    const { result } = await executeServerTool('fetch_web_page', JSON.stringify({ url: `${origin}/huge` }))
    expect(result).toContain('Note: the page was larger than the download cap')
    expect(result).toContain(`[Result truncated: showing the first ${MAX_PAGE_TEXT_CHARS} of ${2 * 1024 * 1024} characters.]`)
    expect(result!.length).toBeLessThan(MAX_PAGE_TEXT_CHARS + 400)
  })

  it('names the HTTP status of a page that is not there', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect((await executeServerTool('fetch_web_page', JSON.stringify({ url: `${origin}/missing` }))).error).toMatch(/the page answered HTTP 404 Not Found/)
  })
})

describe('fetchPublicUrl limits', () => {
  it('reads at most 2 MB of a larger body', async () => {
    const page = await fetchPublicUrl(`${origin}/huge`, { allowedHosts: allowedHosts() })
    expect(page).toMatchObject({ truncated: true, mediaType: 'text/plain' })
    expect(page.text.length).toBe(2 * 1024 * 1024)
  })

  it('counts the cap after decompression, so a gzip bomb stops at it', async () => {
    const page = await fetchPublicUrl(`${origin}/bomb`, { allowedHosts: allowedHosts(), maxBytes: 64 * 1024 })
    expect(page.truncated).toBe(true)
    expect(page.text).toBe('z'.repeat(64 * 1024))
  })

  it('reads only HTML, plain text and JSON', async () => {
    expect((await fetchPublicUrl(`${origin}/json`, { allowedHosts: allowedHosts() })).text).toBe('{"ok":true}')
    await expect(fetchPublicUrl(`${origin}/image`, { allowedHosts: allowedHosts() })).rejects.toThrow(/the page is image\/png; only HTML, plain text and JSON can be read/)
  })

  it('decodes the charset the page declares', async () => {
    expect((await fetchPublicUrl(`${origin}/latin1`, { allowedHosts: allowedHosts() })).text).toBe('café')
  })

  it.each(['/hang', '/drip'])('gives up on %s at the time cap', async (path) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const reached = new Promise<void>((resolve) => { stalled = resolve })
    const pending = fetchPublicUrl(`${origin}${path}`, { allowedHosts: allowedHosts(), timeoutMs: 5_000 })
    const outcome = pending.catch((error: Error) => error)
    await reached
    vi.advanceTimersByTime(4_999)
    vi.advanceTimersByTime(1)
    expect(((await outcome) as Error).message).toBe(`Could not fetch ${origin}${path}: no complete answer within 5 s.`)
  })

  it('stops when the caller aborts (the tool\'s own timeout, Stop)', async () => {
    const controller = new AbortController()
    const reached = new Promise<void>((resolve) => { stalled = resolve })
    const pending = fetchPublicUrl(`${origin}/hang`, { allowedHosts: allowedHosts(), signal: controller.signal }).catch((error: unknown) => error)
    await reached
    controller.abort(new Error('stopped by the user'))
    expect(((await pending) as Error).message).toBe('stopped by the user')
  })
})

describe('htmlToReadableText', () => {
  it('reads the whole body when the page has no <main>', () => {
    const { title, text } = htmlToReadableText('<html><body><nav>Menu</nav><h2>Heading</h2><p>One &lt;two&gt;</p><ul><li>a</li><li>b</li></ul><div hidden>secret</div></body></html>')
    expect(title).toBe('')
    expect(text).toBe('Heading\n\nOne <two>\n\n * a\n * b')
  })
})
