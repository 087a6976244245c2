// The icon route (@nuxt/icon's /api/_nuxt_icon/<prefix>.json, answered from the installed sets' shards), run on h3
// over real HTTP as an attacker would call it: paths out of the folder, unknown sets, too many or huge names,
// names that are Object.prototype's own keys. And the store behind it: shards, aliases, a bounded cache.
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'
import * as h3 from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ICON_REQUEST_LIMITS, parseIconRequest } from '~~/server/utils/icons/icon-request'
import { createIconStore, createIconifyJsonSource, createShardFolderSource } from '~~/server/utils/icons/icon-store'
import type { IconSource } from '~~/server/utils/icons/icon-store'
import { writeIconShards } from '~~/server/utils/icons/write-icon-shards'
import { resolveIconifyName } from '~/utils/chat/registry/iconify-name'

const require = createRequire(import.meta.url)
const setFile = (prefix: string) => join(dirname(require.resolve(`@iconify-json/${prefix}/package.json`)), 'icons.json')
const SETS = ['tabler', 'carbon', 'mdi']

let work = ''
let shards = ''
let server: Server
let base = ''

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'plugboard-icons-'))
  const source = join(work, 'json')
  shards = join(work, 'shards')
  const { mkdir } = await import('node:fs/promises')
  await mkdir(source)
  for (const prefix of SETS) await copyFile(setFile(prefix), join(source, `${prefix}.json`))
  // files whose names are no Iconify prefix never become a collection, whatever they hold
  await writeFile(join(source, 'Evil.json'), JSON.stringify({ prefix: 'Evil', icons: { x: { body: '<path/>' } } }))
  await writeFile(join(source, 'x..y.json'), JSON.stringify({ prefix: 'x..y', icons: { x: { body: '<path/>' } } }))
  const files = Object.fromEntries([...SETS, 'Evil', 'x..y'].map(prefix => [prefix, join(source, `${prefix}.json`)]))
  await writeIconShards(files, shards, 'test')
  // a file beside the shard folder that a path out of it would reach
  await writeFile(join(work, 'secret.json'), '{"secret":true}')

  for (const name of ['defineEventHandler', 'createError', 'setResponseHeader', 'getRouterParam', 'getQuery'] as const) {
    (globalThis as Record<string, unknown>)[name] = h3[name]
  }
  (globalThis as Record<string, unknown>).useRuntimeConfig = () => ({ iconDataDir: shards, iconifyApiUrl: '' })
  const app = h3.createApp()
  const router = h3.createRouter()
  router.get('/api/_nuxt_icon/:collection', (await import('~~/server/icons/icon-collection-route')).default)
  app.use(router)
  server = createServer(h3.toNodeListener(app))
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/_nuxt_icon/`
})

afterAll(async () => {
  await new Promise(done => server?.close(done))
  if (work) await rm(work, { recursive: true, force: true })
})

async function get(path: string): Promise<{ status: number, body: Record<string, unknown>, cache: string | null }> {
  const response = await fetch(base + path)
  return { status: response.status, body: await response.json() as Record<string, unknown>, cache: response.headers.get('cache-control') }
}

describe('GET /api/_nuxt_icon/<prefix>.json', () => {
  it('answers icons of collections beyond lucide and mdi in Iconify\'s format, with the set\'s box', async () => {
    const tabler = await get('tabler.json?icons=cloud,rocket')
    expect(tabler.status).toBe(200)
    expect(tabler.body).toMatchObject({ prefix: 'tabler', width: 24, height: 24 })
    expect(Object.keys(tabler.body.icons as object).sort()).toEqual(['cloud', 'rocket'])
    expect((tabler.body.icons as Record<string, { body: string }>).cloud!.body).toMatch(/^<(path|g)\b/)
    expect(tabler.cache).toMatch(/max-age/)
    const carbon = await get('carbon.json?icons=cloud')
    expect(carbon.body).toMatchObject({ prefix: 'carbon', width: 32, height: 32 })
    expect((carbon.body.icons as Record<string, { body: string }>).cloud!.body).toContain('<path')
  })

  it('resolves an alias to its parent, wherever their shards are', async () => {
    const { status, body } = await get('tabler.json?icons=123')
    expect(status).toBe(200)
    expect(body.aliases).toEqual({ 123: { parent: 'number-123' } })
    expect(Object.keys(body.icons as object)).toEqual(['number-123'])
  })

  it('lists unknown icons in not_found with 200, so the client marks them missing at once', async () => {
    const { status, body } = await get('tabler.json?icons=cloud,no-such-icon-here')
    expect(status).toBe(200)
    expect(body.not_found).toEqual(['no-such-icon-here'])
    expect(Object.keys(body.icons as object)).toEqual(['cloud'])
    const none = await get('carbon.json?icons=nothing-at-all')
    expect(none.body).toMatchObject({ prefix: 'carbon', icons: {}, width: 32, height: 32, not_found: ['nothing-at-all'] })
  })

  it('never takes Object.prototype\'s keys for icons', async () => {
    const { status, body } = await get('mdi.json?icons=constructor,to-string,proto')
    expect(status).toBe(200)
    expect(body.icons).toEqual({})
    expect(body.not_found).toEqual(['constructor', 'to-string', 'proto'])
    expect((await get('constructor.json?icons=cloud')).status).toBe(404)
    expect((await get('__proto__.json?icons=cloud')).status).toBe(404)
  })

  it('answers 404 for collections it does not have and for every path out of the shard folder', async () => {
    for (const path of [
      'no-such-set.json?icons=cloud',
      'index.json?icons=cloud',
      'Evil.json?icons=x',
      'evil.json?icons=x',
      'x..y.json?icons=x',
      '..%2Fsecret.json?icons=secret',
      '..%2F..%2Fshards%2Ftabler.json?icons=cloud',
      '%2E%2E.json?icons=cloud',
      'tabler%2F0.json?icons=cloud',
      'tabler%00.json?icons=cloud',
      `${'a'.repeat(5000)}.json?icons=cloud`,
    ]) {
      const { status, body } = await get(path)
      expect(status, path).toBe(404)
      expect(JSON.stringify(body), path).not.toContain('secret')
    }
  })

  it('refuses too many names, huge names, malformed names and no names with 400 and a clear message', async () => {
    const many = Array.from({ length: ICON_REQUEST_LIMITS.maxNames + 1 }, (_, index) => `i${index}`).join(',')
    const tooMany = await get(`tabler.json?icons=${many}`)
    expect(tooMany.status).toBe(400)
    expect((tooMany.body.data as { message: string }).message).toMatch(/at most 128 icons/i)
    const justEnough = await get(`tabler.json?icons=${many.split(',').slice(0, ICON_REQUEST_LIMITS.maxNames).join(',')}`)
    expect(justEnough.status).toBe(200)

    const huge = await get(`tabler.json?icons=cloud,${'a'.repeat(8000)}`)
    expect(huge.status).toBe(400)
    expect((huge.body.data as { message: string }).message).toMatch(/at most 128 characters/)
    for (const bad of ['Cloud', 'cloud--x', '-cloud', 'cloud/..', '..%2Fsecret', 'cloud%00', 'a b']) {
      expect((await get(`tabler.json?icons=${bad}`)).status, bad).toBe(400)
    }
    expect((await get('tabler.json')).status).toBe(400)
    expect((await get('tabler.json?icons=')).status).toBe(400)
    expect((await get('tabler.json?icons=a&icons=b')).status).toBe(400)
  })
})

describe('parseIconRequest', () => {
  it('gives distinct names in order and the prefix without .json', () => {
    expect(parseIconRequest('simple-icons.json', 'github,gitlab,github')).toEqual({ ok: true, prefix: 'simple-icons', names: ['github', 'gitlab'] })
  })

  it('does not split a hostile query further than the cap', () => {
    const result = parseIconRequest('tabler.json', ','.repeat(1_000_000))
    expect(result).toMatchObject({ ok: false, status: 400 })
  })
})

describe('icon store', () => {
  it('answers the same from the installed packages\' files (npm run dev) as from a build\'s shards', async () => {
    const fromJson = createIconStore(createIconifyJsonSource(Object.fromEntries([...SETS, 'ph'].map(prefix => [prefix, setFile(prefix)]))))
    const fromShards = createIconStore(createShardFolderSource(shards))
    const names = ['cloud', '123', 'rocket', 'missing-one']
    expect(await fromJson.getIcons('tabler', names)).toEqual(await fromShards.getIcons('tabler', names))
    expect(await fromJson.getIcons('ph', ['alarm'])).toMatchObject({ prefix: 'ph', width: 256 })
    expect(await fromShards.getIcons('ph', ['alarm'])).toBeUndefined()
    expect(await fromJson.getIcons('..', ['cloud'])).toBeUndefined()
  })

  it('keeps shards within its byte budget and reads a kept shard only once', async () => {
    const inner = createShardFolderSource(shards)
    const reads: string[] = []
    let largest = 0
    const counting: IconSource = {
      prefixes: () => inner.prefixes(),
      meta: prefix => inner.meta(prefix),
      async shard(prefix, index) {
        reads.push(`${prefix}/${index}`)
        const entry = await inner.shard(prefix, index)
        largest = Math.max(largest, entry.bytes)
        return entry
      },
    }
    // room for about two shards
    const store = createIconStore(counting, { cacheBytes: 300 * 1024 })
    await store.getIcons('tabler', ['cloud'])
    await store.getIcons('tabler', ['cloud'])
    expect(reads).toHaveLength(1)
    expect(largest).toBeLessThan(300 * 1024)
    // many shards later, the first was let go and is read again
    const names = Array.from({ length: 40 }, (_, index) => `icon-${index}`)
    await store.getIcons('mdi', names)
    const before = reads.length
    await store.getIcons('tabler', ['cloud'])
    expect(reads.length).toBe(before + 1)
  })

  it('shares one read between requests that overlap', async () => {
    const inner = createShardFolderSource(shards)
    let reads = 0
    const store = createIconStore({ ...inner, prefixes: () => inner.prefixes(), meta: p => inner.meta(p), shard: (p, i) => (reads++, inner.shard(p, i)) })
    await Promise.all(Array.from({ length: 10 }, () => store.getIcons('carbon', ['cloud'])))
    expect(reads).toBe(1)
  })
})

describe('resolveIconifyName', () => {
  const collections = ['simple', 'simple-icons', 'tabler', 'mdi']
  it('reads @nuxt/icon\'s forms', () => {
    expect(resolveIconifyName('i-tabler:cloud', collections)).toBe('tabler:cloud')
    expect(resolveIconifyName('i-tabler-cloud', collections)).toBe('tabler:cloud')
    expect(resolveIconifyName('i-simple-icons-github', collections)).toBe('simple-icons:github')
    expect(resolveIconifyName('carbon:cloud', collections)).toBe('carbon:cloud')
  })
  it('gives undefined for what no collection can hold', () => {
    expect(resolveIconifyName('i-unknownset-cloud', collections)).toBeUndefined()
    expect(resolveIconifyName('i-tabler:Cloud', collections)).toBeUndefined()
    expect(resolveIconifyName('i-../x:y', collections)).toBeUndefined()
  })
})
