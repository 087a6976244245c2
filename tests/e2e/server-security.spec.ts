// The server probed as an attacker would: another site, no session, a guessed password, a flood, huge bodies,
// a dying or hostile upstream. Each test starts the built app with the configuration it needs.
import { connect } from 'node:net'
import { expect, test } from '@playwright/test'
import { FAKE_URL, waitForReady } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { startHostileUpstream } from './support/hostile-upstream'
import type { HostileUpstream } from './support/hostile-upstream'

const KEY = 'sk-or-v1-operator-secret-key-0123456789'
const chat = (model: string, extra: Record<string, unknown> = {}) => JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'hi' }], ...extra })
const json = { 'content-type': 'application/json' }

test.describe('the server key on an open server', () => {
  let upstream: HostileUpstream
  let app: AppInstance
  test.beforeAll(async () => {
    upstream = await startHostileUpstream()
    app = await startApp({ NUXT_OPENROUTER_API_KEY: KEY, NUXT_OPENROUTER_BASE_URL: upstream.base, NUXT_UPSTREAM_TIMEOUT_MS: '30000' })
  })
  test.afterAll(async () => {
    await app.stop()
    await upstream.close()
  })

  test('the app page hands out a sealed HttpOnly SameSite session cookie', async () => {
    const response = await fetch(`${app.url}/`)
    const cookie = response.headers.getSetCookie().find(item => item.startsWith('plugboard-session='))
    expect(cookie).toBeDefined()
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).not.toContain(KEY)
  })

  test('a request without the session gets 401 and never reaches the upstream', async () => {
    const before = upstream.requests.length
    const response = await fetch(`${app.url}/api/openrouter/chat/completions`, { method: 'POST', headers: json, body: chat('h/good') })
    expect(response.status).toBe(401)
    expect(response.headers.getSetCookie()).toEqual([])
    expect(upstream.requests.length).toBe(before)
  })

  test('a cross-site request gets 403, even with the session cookie', async () => {
    const before = upstream.requests.length
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'null' }] as Record<string, string>[]) {
      const response = await app.fetchWithSession('/api/openrouter/chat/completions', { method: 'POST', headers: { ...json, ...headers }, body: chat('h/good') })
      expect(response.status, JSON.stringify(headers)).toBe(403)
      expect((await response.json()).message).toMatch(/other sites are refused/)
    }
    expect(upstream.requests.length).toBe(before)
  })

  test('a page on another site cannot spend the key, even with no-cors', async ({ page }) => {
    const before = upstream.requests.length
    // Another origin (the hostile upstream's own host:port serves any GET): the browser attaches what it may.
    await page.goto(upstream.base.replace('/api/v1', '/'))
    const sent = await page.evaluate(async (target) => {
      await fetch(target, { method: 'POST', mode: 'no-cors', credentials: 'include', body: JSON.stringify({ model: 'o1-pro', max_tokens: 100_000, messages: [{ role: 'user', content: 'x' }] }) })
      return true
    }, `${app.url}/api/openrouter/chat/completions`)
    expect(sent).toBe(true)
    expect(upstream.requests.length).toBe(before)
  })

  test('the app\'s own session streams the reply, with the key added on the server only', async () => {
    const response = await app.fetchWithSession('/api/openrouter/chat/completions', { method: 'POST', headers: { ...json, 'sec-fetch-site': 'same-origin', 'origin': app.url }, body: chat('h/good') })
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('All good.')
    expect(upstream.requests.at(-1)!.authorization).toBe(`Bearer ${KEY}`)
  })

  test('an upstream reset mid-stream ends the reply at once with an error frame', async () => {
    const started = Date.now()
    const response = await app.fetchWithSession('/api/openrouter/chat/completions', { method: 'POST', headers: json, body: chat('h/reset') })
    const text = await response.text()
    const elapsedMs = Date.now() - started
    test.info().annotations.push({ type: 'reset → end of reply', description: `${elapsedMs} ms` })
    expect(text).toContain('Hello ')
    expect(text).toMatch(/data: \{"error":\{"message":"The reply stopped: the connection to the model provider broke/)
    // Ended by the reset itself, not by the 30 s idle deadline.
    expect(elapsedMs).toBeLessThan(10_000)
  })

  test('garbage mid-stream ends the reply with an error frame', async () => {
    const text = await (await app.fetchWithSession('/api/openrouter/chat/completions', { method: 'POST', headers: json, body: chat('h/garbage') })).text()
    expect(text).toMatch(/"error":\{"message":"The reply stopped: the model provider sent data that is not JSON/)
  })

  test('a redirect from the upstream is refused, not followed', async () => {
    const response = await app.fetchWithSession('/api/openrouter/chat/completions', { method: 'POST', headers: json, body: chat('h/redirect') })
    expect(response.status).toBe(502)
    expect((await response.json()).message).toMatch(/redirect \(307\)/)
    expect(upstream.redirectTargetHits()).toBe(0)
  })

  test('an upstream error body is passed on without the key or the internal URL', async () => {
    const response = await app.fetchWithSession('/api/openrouter/chat/completions', { method: 'POST', headers: json, body: chat('h/echo-key') })
    expect(response.status).toBe(400)
    const text = await response.text()
    expect(text).toContain('[redacted]')
    expect(text).not.toContain(KEY)
    expect(text).not.toContain(upstream.base)
  })

  test('a reader that does not read does not make the server buffer the upstream', async () => {
    const response = await app.fetchWithSession('/api/openrouter/chat/completions', { method: 'POST', headers: json, body: chat('h/endless') })
    const reader = response.body!.getReader()
    await reader.read()
    const rssBefore = app.residentMb()
    // Stop reading: the upstream must soon be unable to write more (two reads a second apart agree).
    let writtenBefore = -1
    await expect.poll(() => {
      const written = upstream.endlessBytesWritten()
      const stalled = written - writtenBefore < 64 * 1024
      writtenBefore = written
      return stalled
    }, { timeout: 15_000, intervals: [1_000] }).toBe(true)
    const writtenLater = upstream.endlessBytesWritten()
    const rssAfter = app.residentMb()
    test.info().annotations.push({ type: 'backpressure', description: `upstream wrote ${(writtenLater / 1e6).toFixed(1)} MB; server RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB` })
    expect(writtenLater).toBeLessThan(64 * 1024 * 1024)
    await reader.cancel()
  })

  test('unknown API paths answer 404 JSON, not the app page', async () => {
    const response = await app.fetchWithSession('/api/nope/../keys', { headers: { accept: 'text/html' } })
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toContain('application/json')
  })
})

/** The paid options of issue 20's probe: web search twice, provider routing once. */
const PAID: Record<string, unknown> = {
  plugins: [{ id: 'web' }],
  web_search_options: { search_context_size: 'high' },
  provider: { order: ['openai'], max_price: { prompt: 1000 } },
}

for (const allowed of [false, true]) {
  test.describe(`paid options on the key, ${allowed ? 'allowed' : 'not allowed'} by the operator`, () => {
    let upstream: HostileUpstream
    let app: AppInstance
    test.beforeAll(async () => {
      upstream = await startHostileUpstream()
      app = await startApp({
        NUXT_OPENROUTER_API_KEY: KEY, NUXT_OPENROUTER_BASE_URL: upstream.base,
        ...(allowed && { NUXT_OPENROUTER_ALLOW_WEB_SEARCH: 'true', NUXT_OPENROUTER_ALLOW_PROVIDER_ROUTING: 'true' }),
      })
    })
    test.afterAll(async () => {
      await app.stop()
      await upstream.close()
    })

    test(allowed ? 'web search and provider routing reach the upstream' : 'web search and provider routing never reach the upstream, and the refusal names the switch', async () => {
      for (const [field, value] of Object.entries(PAID)) {
        const response = await app.fetchWithSession('/api/openrouter/chat/completions', { method: 'POST', headers: json, body: chat('h/good', { [field]: value }) })
        if (allowed) {
          expect(response.status).toBe(200)
          await response.text()
        }
        else {
          expect(response.status).toBe(403)
          expect((await response.json()).message).toMatch(field === 'provider' ? /"provider".*NUXT_OPENROUTER_ALLOW_PROVIDER_ROUTING=true/ : new RegExp(`"${field}".*NUXT_OPENROUTER_ALLOW_WEB_SEARCH=true`))
        }
      }
      const reached = Object.keys(PAID).filter(field => upstream.requests.some(request => Object.hasOwn(request.body, field)))
      expect(reached).toEqual(allowed ? Object.keys(PAID) : [])
      const unknown = await app.fetchWithSession('/api/openrouter/chat/completions', { method: 'POST', headers: json, body: chat('h/good', { modalities: ['image', 'text'] }) })
      expect(unknown.status).toBe(400)
      expect((await unknown.json()).message).toContain('"modalities" is not accepted')
    })
  })
}

test.describe('the operator\'s policy on the key', () => {
  let upstream: HostileUpstream
  let app: AppInstance
  test.beforeAll(async () => {
    upstream = await startHostileUpstream()
    app = await startApp({ NUXT_OPENROUTER_API_KEY: KEY, NUXT_OPENROUTER_BASE_URL: upstream.base, NUXT_OPENROUTER_MODELS: 'h/good,h/other', NUXT_OPENROUTER_MAX_TOKENS: '1000', NUXT_RATE_LIMIT_PER_MINUTE: '3' })
  })
  test.afterAll(async () => {
    await app.stop()
    await upstream.close()
  })

  test('a model outside the allow-list is refused; token limits are capped; the model list is narrowed', async () => {
    const refused = await app.fetchWithSession('/api/openrouter/chat/completions', { method: 'POST', headers: json, body: chat('o1-pro', { max_tokens: 100_000 }) })
    expect(refused.status).toBe(403)
    expect((await refused.json()).message).toMatch(/"o1-pro" is not allowed on this server\. Allowed: h\/good, h\/other/)
    const fallback = await app.fetchWithSession('/api/openrouter/chat/completions', { method: 'POST', headers: json, body: chat('h/good', { models: ['o1-pro'] }) })
    expect(fallback.status).toBe(403)

    const allowed = await app.fetchWithSession('/api/openrouter/chat/completions', { method: 'POST', headers: json, body: chat('h/good', { max_tokens: 100_000 }) })
    expect(allowed.status).toBe(200)
    await allowed.text()
    expect(upstream.requests.at(-1)!.body.max_tokens).toBe(1000)

    const { data } = await (await app.fetchWithSession('/api/openrouter/models')).json() as { data: { id: string }[] }
    expect(data.map(model => model.id)).toEqual(['h/good', 'h/other'])
    const config = await (await app.fetchWithSession('/api/config')).json()
    expect(config).toMatchObject({ allowedModels: ['h/good', 'h/other'], maxTokens: 1000 })
    expect(JSON.stringify(config)).not.toContain(upstream.base)
  })

  test('past the per-minute limit the model route answers 429 with Retry-After', async () => {
    // The first test spent 2 of the 3 requests a minute (refusals by policy are counted too: they were requests).
    let response: Response | undefined
    for (let attempt = 0; attempt < 5; attempt++) {
      response = await app.fetchWithSession('/api/openrouter/chat/completions', { method: 'POST', headers: json, body: chat('h/good') })
      await response.text()
      if (response.status === 429) break
    }
    expect(response!.status).toBe(429)
    expect(Number(response!.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another session from the same IP is limited too: the IP counts, not only the session.
    const fresh = await fetch(`${app.url}/`)
    const cookie = fresh.headers.getSetCookie().map(item => item.split(';')[0]).join('; ')
    const other = await fetch(`${app.url}/api/openrouter/chat/completions`, { method: 'POST', headers: { ...json, cookie }, body: chat('h/good') })
    expect(other.status).toBe(429)
  })
})

test.describe('every input bounded', () => {
  let app: AppInstance
  test.beforeAll(async () => {
    app = await startApp()
  })
  test.afterAll(async () => {
    await app.stop()
  })

  test('a 50 MB body is answered 413 at once, and the server\'s memory stays flat', async () => {
    const rssBefore = app.residentMb()
    const size = 50 * 1024 * 1024
    const declared = await app.fetchWithSession('/api/demo/v1/chat/completions', { method: 'POST', headers: json, body: new Uint8Array(size) })
    expect(declared.status).toBe(413)
    expect((await declared.json()).message).toMatch(/larger than this server accepts \(2 MB\)/)

    // Chunked, with no Content-Length: counted as it arrives and dropped at the limit. The server answers while the
    // upload is still coming, and the answer reaches the client although it is still sending (closing the connection
    // at once made fetch fail with EPIPE instead of reading the 413).
    const chunk = new Uint8Array(1024 * 1024)
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= size) return controller.close()
        sent += chunk.length
        controller.enqueue(chunk)
      },
    })
    const chunked = await app.fetchWithSession('/api/demo/v1/chat/completions', { method: 'POST', headers: json, body, duplex: 'half' } as RequestInit)
    expect(chunked.status).toBe(413)
    expect((await chunked.json()).message).toMatch(/larger than this server accepts \(2 MB\)/)
    // the server reads and drops at most 16 MB past the limit, then closes
    expect(sent, 'the upload stopped well before 50 MB').toBeLessThan(size)
    const rssAfter = app.residentMb()
    test.info().annotations.push({ type: '50 MB bodies', description: `RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB; chunked upload stopped after ${(sent / 1e6).toFixed(0)} MB sent` })
    expect(rssAfter - rssBefore).toBeLessThan(40)
  })

  test('a client that goes on sending after its 413 is cut off within seconds', async () => {
    const { port } = new URL(app.url)
    const socket = connect(Number(port), '127.0.0.1')
    await new Promise(resolve => socket.once('connect', resolve))
    let answer = ''
    socket.on('data', (data: Buffer) => { answer += data.toString('latin1') })
    const closed = new Promise<number>(resolve => socket.once('close', () => resolve(Date.now())))
    socket.on('error', () => {})
    socket.write(`POST /api/demo/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${app.cookie}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`)
    const piece = Buffer.alloc(64 * 1024, 0x20)
    const chunk = Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
    // 3 MB at once: over the 2 MB limit
    for (let index = 0; index < 48; index++) socket.write(chunk)
    await expect.poll(() => answer.split('\r\n')[0], { timeout: 10_000 }).toBe('HTTP/1.1 413 Payload Too Large')
    const answeredAt = Date.now()
    // then a trickle that never ends, as a slow attacker would send
    const trickle = setInterval(() => { if (!socket.destroyed) socket.write(chunk) }, 100)
    try {
      const closedAt = await Promise.race([closed, new Promise<number>(resolve => setTimeout(() => resolve(Number.POSITIVE_INFINITY), 15_000))])
      expect(closedAt - answeredAt, 'the server closed the connection within its 2 s linger (and some slack)').toBeLessThan(6_000)
    }
    finally {
      clearInterval(trickle)
      socket.destroy()
    }
    expect(answer).toContain('larger than this server accepts (2 MB)')
  })

  test('a worst-case 2 MB demo request is answered while other routes stay responsive', async () => {
    const tools = Array.from({ length: 128 }, (_, index) => ({ type: 'function', function: { name: `tool_${index}_${'x'.repeat(40)}`, description: 'd'.repeat(2000), parameters: { type: 'object', properties: {} } } }))
    const prompt = `what is ${'1+'.repeat(400_000)}1 and the time in ${'tokyo '.repeat(50_000)}`.slice(0, 1_700_000)
    const started = Date.now()
    const heavy = app.fetchWithSession('/api/demo/v1/chat/completions', { method: 'POST', headers: json, body: JSON.stringify({ model: 'plugboard/demo', stream: true, tools, messages: [{ role: 'user', content: prompt }] }) })
    const probe = await app.fetchWithSession('/api/auth/status')
    const probeMs = Date.now() - started
    const response = await heavy
    await response.text()
    const heavyMs = Date.now() - started
    test.info().annotations.push({ type: 'worst-case demo request', description: `answered in ${heavyMs} ms; another route answered in ${probeMs} ms meanwhile` })
    expect(probe.status).toBe(200)
    expect(response.status).toBe(200)
  })

  test('too many tools are refused with a clear message', async () => {
    const tools = Array.from({ length: 10_000 }, (_, index) => ({ type: 'function', function: { name: `t${index}` } }))
    const response = await app.fetchWithSession('/api/demo/v1/chat/completions', { method: 'POST', headers: json, body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], tools }) })
    expect(response.status).toBe(400)
    expect(await response.text()).toMatch(/128/)
  })
})

test.describe('password mode', () => {
  let app: AppInstance
  test.beforeAll(async () => {
    app = await startApp({ NUXT_ACCESS_PASSWORD: 'correct horse battery staple' })
  })
  test.afterAll(async () => {
    await app.stop()
  })

  test('every API route but signing in answers 401 until the browser signs in', async () => {
    for (const path of ['/api/config', '/api/demo/v1/models', '/api/_auth/session']) {
      expect((await app.fetchWithSession(path)).status, path).toBe(401)
    }
    expect(await (await app.fetchWithSession('/api/auth/status')).json()).toEqual({ passwordRequired: true, signedIn: false })
    const wrong = await app.fetchWithSession('/api/auth/sign-in', { method: 'POST', headers: json, body: JSON.stringify({ password: 'guess' }) })
    expect(wrong.status).toBe(401)

    const right = await app.fetchWithSession('/api/auth/sign-in', { method: 'POST', headers: json, body: JSON.stringify({ password: 'correct horse battery staple' }) })
    expect(right.status).toBe(200)
    const cookie = right.headers.getSetCookie().map(item => item.split(';')[0]).join('; ')
    const config = await fetch(`${app.url}/api/config`, { headers: { cookie } })
    expect(config.status).toBe(200)
  })

  test('the sign-in page lets a person in, then the app works', async ({ page }) => {
    await page.goto(app.url)
    await expect(page).toHaveURL(/\/sign-in/)
    await page.getByTestId('sign-in-password').fill('wrong password')
    await page.getByTestId('sign-in-submit').click()
    await expect(page.getByText('That password is not right.')).toBeVisible()
    await page.getByTestId('sign-in-password').fill('correct horse battery staple')
    await page.getByTestId('sign-in-submit').click()
    await waitForReady(page)
    await expect(page).not.toHaveURL(/sign-in/)
    await page.getByTestId('composer-input').fill('what is 12*7')
    await page.getByTestId('composer-input').press('Enter')
    await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('84', { timeout: 20_000 })
  })

  test('password guessing is slowed down', async () => {
    let status = 0
    for (let attempt = 0; attempt < 15 && status !== 429; attempt++) {
      status = (await fetch(`${app.url}/api/auth/sign-in`, { method: 'POST', headers: json, body: JSON.stringify({ password: `guess ${attempt}` }) })).status
    }
    expect(status).toBe(429)
  })
})

test.describe('behind a reverse proxy', () => {
  // Requests come from 127.0.0.1, where a proxy on the same host would stand (trusted by default), carrying what
  // nginx's $proxy_add_x_forwarded_for writes: whatever the client sent, then the client's real address.
  const randomAddress = () => Array.from({ length: 4 }, () => Math.floor(Math.random() * 256)).join('.')
  const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {})
  let app: AppInstance
  test.afterEach(async () => {
    await app?.stop()
  })

  test('40 wrong passwords with spoofed X-Forwarded-For entries: 429 by the 11th', async () => {
    app = await startApp({ NUXT_TRUST_PROXY: 'true', NUXT_ACCESS_PASSWORD: 'correct horse battery staple' })
    const statuses: number[] = []
    for (let attempt = 0; attempt < 40; attempt++) {
      const response = await fetch(`${app.url}/api/auth/sign-in`, { method: 'POST', headers: { ...json, 'x-forwarded-for': `${randomAddress()}, 203.0.113.7` }, body: JSON.stringify({ password: `guess ${attempt}` }) })
      await response.arrayBuffer()
      statuses.push(response.status)
    }
    test.info().annotations.push({ type: '40 spoofed sign-ins', description: JSON.stringify(tally(statuses)) })
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
    expect(tally(statuses)).toEqual({ 401: 10, 429: 30 })
  })

  test('chats from fresh sessions with spoofed X-Forwarded-For entries still meet the per-IP limit', async () => {
    app = await startApp({ NUXT_TRUST_PROXY: 'true', NUXT_OPENROUTER_API_KEY: KEY, NUXT_OPENROUTER_BASE_URL: `${FAKE_URL}/api/v1`, NUXT_RATE_LIMIT_PER_MINUTE: '5' })
    const statuses: number[] = []
    for (let attempt = 0; attempt < 12; attempt++) {
      const page = await fetch(`${app.url}/`, { headers: { 'x-forwarded-for': `${randomAddress()}, 198.51.100.23` } })
      await page.text()
      const cookie = page.headers.getSetCookie().map(item => item.split(';')[0]).join('; ')
      const response = await fetch(`${app.url}/api/openrouter/chat/completions`, { method: 'POST', headers: { ...json, cookie, 'x-forwarded-for': `${randomAddress()}, 198.51.100.23` }, body: chat('fake/text') })
      await response.arrayBuffer()
      statuses.push(response.status)
    }
    test.info().annotations.push({ type: '12 spoofed chats from fresh sessions (limit 5)', description: JSON.stringify(tally(statuses)) })
    expect(tally(statuses)).toEqual({ 200: 5, 429: 7 })
  })

  test('X-Forwarded-Host from a peer that is not a trusted proxy does not pass the same-site check', async () => {
    app = await startApp({ NUXT_TRUST_PROXY: 'true', NUXT_TRUSTED_PROXIES: '10.0.0.0/8' })
    const spoofed = await app.fetchWithSession('/api/demo/v1/models', { headers: { 'origin': 'https://evil.example', 'x-forwarded-host': 'evil.example' } })
    expect(spoofed.status).toBe(403)
    expect((await spoofed.json()).message).toMatch(/other sites are refused/)
    // the same request through a trusted proxy is the proxy's word
    await app.stop()
    app = await startApp({ NUXT_TRUST_PROXY: 'true' })
    const proxied = await app.fetchWithSession('/api/demo/v1/models', { headers: { 'origin': 'https://chat.example', 'x-forwarded-host': 'chat.example' } })
    expect(proxied.status).toBe(200)
  })
})

test.describe('a background chat\'s event streams', () => {
  let app: AppInstance
  test.beforeAll(async () => {
    app = await startApp({ NUXT_OPENROUTER_API_KEY: KEY, NUXT_OPENROUTER_BASE_URL: `${FAKE_URL}/api/v1` })
  })
  test.afterAll(async () => {
    await app.stop()
  })

  test('200 streams from one session: 32 open, the rest 429; closing frees slots', async () => {
    // fake/browser-tool calls read_page_note, a tool only the tab has: the job waits, its stream stays open
    const started = await app.fetchWithSession('/api/chats', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ threadId: 'streams', model: 'fake/browser-tool', messages: [{ role: 'user', content: 'read the note' }], browserTools: [{ type: 'function', function: { name: 'read_page_note', parameters: { type: 'object', properties: {} } } }] }),
    })
    expect(started.status).toBe(201)
    const { id } = await started.json() as { id: string }
    const open = async () => {
      const abort = new AbortController()
      const response = await app.fetchWithSession(`/api/chats/${id}/events?after=0`, { headers: { accept: 'text/event-stream' }, signal: abort.signal })
      const message = response.status === 200 ? undefined : (await response.json()).message as string
      return { status: response.status, message, response, close: () => abort.abort() }
    }
    const streams = await Promise.all(Array.from({ length: 200 }, open))
    const counts = streams.reduce<Record<number, number>>((tally, stream) => ({ ...tally, [stream.status]: (tally[stream.status] ?? 0) + 1 }), {})
    test.info().annotations.push({ type: '200 event streams of one session', description: JSON.stringify(counts) })
    expect(counts).toEqual({ 200: 32, 429: 168 })
    expect(streams.find(stream => stream.status === 429)!.message).toMatch(/already has 32 chat streams open on this server/)

    // five tabs drop their connections without a word: five slots come back, and no more
    const held = streams.filter(stream => stream.status === 200)
    for (const stream of held.slice(0, 5)) stream.close()
    await expect.poll(async () => {
      const again = await open()
      if (again.status === 200) held.push(again)
      return held.length
    }, { timeout: 10_000 }).toBe(37)
    expect((await open()).status).toBe(429)
    for (const stream of held) stream.close()
  })
})
