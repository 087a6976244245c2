// Collections that are not installed come from the Iconify API through the app's server. The API here is a local
// server that answers as Iconify does, or as a hostile mirror would: scripts and handlers in icon bodies, huge or
// malformed answers, another prefix, redirects, no answer at all.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createRemoteIconStore } from '~~/server/utils/icons/remote-icon-store'
import type { RemoteIconStoreOptions } from '~~/server/utils/icons/remote-icon-store'

type Answer = (request: IncomingMessage, response: ServerResponse) => void
let answer: Answer
const asked: string[] = []
let server: Server
let apiUrl = ''
let cacheDir = ''

const ROCKET = '<path fill="currentColor" d="M4 13a8 8 0 0 1 7 7a6 6 0 0 0 3-5a9 9 0 0 0 6-8a3 3 0 0 0-3-3a9 9 0 0 0-8 6a6 6 0 0 0-5 3"/>'
const json = (body: unknown): Answer => (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

beforeAll(async () => {
  server = createServer((request, response) => {
    asked.push(request.url ?? '')
    answer(request, response)
  })
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise(done => server.close(done))
})

beforeEach(async () => {
  asked.length = 0
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true })
  cacheDir = await mkdtemp(join(tmpdir(), 'plugboard-icon-cache-'))
  answer = json({ prefix: 'fluent', width: 24, height: 24, icons: { 'rocket-24-regular': { body: ROCKET } }, aliases: { rocket: { parent: 'rocket-24-regular' } } })
})

function store(options: Partial<RemoteIconStoreOptions> = {}) {
  return createRemoteIconStore({ apiUrl, cacheDir, known: async () => new Set(['fluent', 'mdi-light']), timeoutMs: 1000, ...options })
}

describe('icons of collections not installed', () => {
  it('are fetched once from the API, answered in Iconify\'s format with aliases resolved, and kept on disk across a restart', async () => {
    const first = await store().getIcons('fluent', ['rocket', 'nope'])
    expect(first).toMatchObject({ prefix: 'fluent', width: 24, height: 24, icons: { 'rocket-24-regular': { body: ROCKET } }, aliases: { rocket: { parent: 'rocket-24-regular' } }, not_found: ['nope'] })
    expect(asked).toEqual(['/fluent.json?icons=rocket,nope'])
    const again = store()
    expect(await again.getIcons('fluent', ['rocket'])).toMatchObject({ icons: { 'rocket-24-regular': { body: ROCKET } } })
    expect(asked).toHaveLength(1)
    expect(JSON.parse(await readFile(join(cacheDir, 'fluent.json'), 'utf8'))).toMatchObject({ prefix: 'fluent', icons: { 'rocket-24-regular': { body: ROCKET } } })
  })

  it('never asks the API for a prefix Iconify does not publish, or one that is no Iconify name', async () => {
    const remote = store()
    expect(await remote.getIcons('nosuchset', ['cloud'])).toBeUndefined()
    expect(await remote.getIcons('../etc', ['passwd'])).toBeUndefined()
    expect(await remote.getIcons('__proto__', ['x'])).toBeUndefined()
    expect(asked).toEqual([])
  })

  it('drops icons whose bodies carry scripts, handlers, foreign content or links out, and keeps the rest', async () => {
    const hostile = {
      'a': '<script>alert(1)</script>',
      'b': '<path onload="alert(1)" d="M0 0"/>',
      'c': '<foreignObject><div>x</div></foreignObject>',
      'd': '<a href="javascript:alert(1)"><path d="M0 0"/></a>',
      'e': '<use href="https://evil.example/sprite.svg#x"/>',
      'f': '<image href="data:text/html,<script>alert(1)</script>"/>',
      'g': 'x'.repeat(70_000),
      'ok': ROCKET,
      'Bad-Name': ROCKET,
    }
    answer = json({ prefix: 'fluent', icons: Object.fromEntries(Object.entries(hostile).map(([name, body]) => [name, { body }])), aliases: { alias: { parent: 'a' }, fine: { parent: 'ok' } } })
    const result = await store().getIcons('fluent', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'ok', 'alias', 'fine'])
    expect(Object.keys(result!.icons)).toEqual(['ok'])
    expect(result!.aliases).toEqual({ fine: { parent: 'ok' } })
    expect(result!.not_found).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'alias'])
    expect(JSON.stringify(result)).not.toMatch(/script|onload|foreign|javascript|evil/i)
  })

  it('answers "not found" (the fallback icon) for another prefix, bad JSON, a huge body, an error, a redirect or a silent server, without waiting past its limit', async () => {
    const cases: Record<string, Answer> = {
      'another prefix': json({ prefix: 'mdi', icons: { rocket: { body: ROCKET } } }),
      'not JSON': (_request, response) => response.end('<html>hi</html>'),
      'an array': json([ROCKET]),
      'huge': (_request, response) => response.end(JSON.stringify({ prefix: 'fluent', icons: { rocket: { body: ROCKET } }, pad: 'x'.repeat(2 * 1024 * 1024) })),
      'a 500': (_request, response) => (response.writeHead(500), response.end('{}')),
      'a redirect': (_request, response) => (response.writeHead(302, { location: `${apiUrl}/elsewhere.json` }), response.end()),
      'silence': () => {},
    }
    for (const [name, hostile] of Object.entries(cases)) {
      answer = hostile
      const started = performance.now()
      const result = await store({ timeoutMs: 300 }).getIcons('fluent', ['rocket'])
      expect(result, name).toEqual({ prefix: 'fluent', icons: {}, not_found: ['rocket'] })
      expect(performance.now() - started, name).toBeLessThan(5000)
    }
  })

  it('does not ask again for a name that failed until its time is up, and keeps at most the icons it may', async () => {
    answer = (_request, response) => (response.writeHead(503), response.end())
    const remote = store({ missTtlMs: 60_000 })
    await remote.getIcons('fluent', ['rocket'])
    await remote.getIcons('fluent', ['rocket'])
    expect(asked).toHaveLength(1)

    const icons = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`icon-${index}`, { body: ROCKET }]))
    answer = json({ prefix: 'mdi-light', icons })
    const small = store({ maxCachedIcons: 5 })
    const names = Object.keys(icons)
    const result = await small.getIcons('mdi-light', names)
    // the whole answer is served once, but only five are kept
    expect(Object.keys(result!.icons)).toHaveLength(20)
    const kept = JSON.parse(await readFile(join(cacheDir, 'mdi-light.json'), 'utf8')) as { icons: object }
    expect(Object.keys(kept.icons)).toHaveLength(5)
  })

  it('asks the API at most `maxConcurrent` times at once; the rest see the fallback', async () => {
    const waiting: ServerResponse[] = []
    answer = (_request, response) => waiting.push(response)
    const remote = store({ maxConcurrent: 2 })
    const results = Array.from({ length: 5 }, (_, index) => remote.getIcons('fluent', [`icon-${index}`]))
    await expect.poll(() => waiting.length).toBe(2)
    const third = await Promise.race([results[2]!, new Promise(resolve => setImmediate(() => resolve('pending')))])
    expect(third).not.toBe('pending')
    for (const response of waiting) json({ prefix: 'fluent', icons: {} })({} as IncomingMessage, response)
    await Promise.all(results)
    expect(asked).toHaveLength(2)
  })
})
