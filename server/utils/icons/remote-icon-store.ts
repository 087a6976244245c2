import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { IconifyAlias, IconifyIcon, IconifyJSON } from '@iconify/types'
import { getIcons } from '@iconify/utils'
import { COLLECTION_DEFAULTS, ICONIFY_NAME } from './icon-shards'
import type { IconStore } from './icon-store'

export interface RemoteIconStoreOptions {
  /** The Iconify API or a mirror of it (`NUXT_ICONIFY_API_URL`), asked `GET <url>/<prefix>.json?icons=a,b`. */
  apiUrl: string
  /** The collections that may be asked for (Iconify's published list); any other prefix is unknown at once. */
  known: () => Promise<ReadonlySet<string>>
  /** Where fetched icons are kept across restarts (`NUXT_ICON_CACHE_DIR`); none keeps them in memory only. */
  cacheDir?: string
  /** @default globalThis.fetch */
  fetch?: typeof fetch
  /** @default 5000 */
  timeoutMs?: number
  /** Bytes of one answer at most. @default 1 MiB */
  maxResponseBytes?: number
  /** Icons kept at most, over every collection; past it answers are served but not kept. @default 10_000 */
  maxCachedIcons?: number
  /** Requests to the API at once; past it a request is answered as not found (the page shows its fallback). @default 4 */
  maxConcurrent?: number
  /** How long a name the API did not have, or a failed request, is not asked for again. @default 10 min */
  missTtlMs?: number
}

/** The longest icon body kept (the largest in Iconify's sets is about 40 kB). */
const MAX_BODY_CHARS = 64 * 1024
/** Markup an icon body never needs, refused from any server: scripts, handlers, foreign content, external refs. */
const UNSAFE_BODY = /<\s*(?:script|foreignobject|iframe|object|embed|use\b[^>]*href\s*=\s*["']?\s*(?!#))|\bon[a-z]+\s*=|javascript:|data:text\/html/i

interface CachedCollection {
  defaults: Partial<Pick<IconifyJSON, (typeof COLLECTION_DEFAULTS)[number]>>
  icons: Record<string, IconifyIcon>
  aliases: Record<string, IconifyAlias>
  dirty: boolean
}

/**
 * Icons of collections not installed, fetched by the app's server from the Iconify API (or the operator's mirror) and
 * kept on disk, so the browser still talks only to the app. What comes back is checked as untrusted input: its size,
 * its shape, its prefix, and every body for markup an icon never needs. Failures answer "not found" (the fallback
 * icon) and are not asked again for a while; the number of requests in flight and of icons kept are bounded.
 */
export function createRemoteIconStore(options: RemoteIconStoreOptions): IconStore {
  const {
    apiUrl, cacheDir, timeoutMs = 5000, maxResponseBytes = 1024 * 1024, maxCachedIcons = 10_000,
    maxConcurrent = 4, missTtlMs = 10 * 60_000,
  } = options
  const fetchImpl = options.fetch ?? globalThis.fetch
  const collections = new Map<string, Promise<CachedCollection>>()
  const misses = new Map<string, number>()
  let cachedIcons = 0
  let inFlight = 0

  function load(prefix: string): Promise<CachedCollection> {
    let entry = collections.get(prefix)
    if (!entry) {
      entry = readCached(cacheDir, prefix).then((cached) => {
        cachedIcons += Object.keys(cached.icons).length
        return cached
      })
      collections.set(prefix, entry)
    }
    return entry
  }

  function missed(key: string): boolean {
    const until = misses.get(key)
    if (until === undefined) return false
    if (until > Date.now()) return true
    misses.delete(key)
    return false
  }

  function rememberMiss(key: string): void {
    // bounded: the oldest misses are forgotten first
    if (misses.size >= maxCachedIcons) misses.delete(misses.keys().next().value!)
    misses.set(key, Date.now() + missTtlMs)
  }

  async function fetchIcons(prefix: string, names: string[]): Promise<IconifyJSON | undefined> {
    if (inFlight >= maxConcurrent) return undefined
    inFlight++
    try {
      const url = `${apiUrl.replace(/\/+$/, '')}/${prefix}.json?icons=${names.join(',')}`
      const response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error', headers: { accept: 'application/json' } })
      if (!response.ok || !response.body) return undefined
      const text = await readBounded(response.body, maxResponseBytes)
      return text === undefined ? undefined : checkAnswer(text, prefix)
    }
    catch {
      return undefined
    }
    finally {
      inFlight--
    }
  }

  return {
    async getIcons(prefix, names) {
      if (!ICONIFY_NAME.test(prefix) || !(await options.known()).has(prefix)) return undefined
      const collection = await load(prefix)
      const wanted = names.filter(name => !Object.hasOwn(collection.icons, name) && !Object.hasOwn(collection.aliases, name) && !missed(`${prefix}:${name}`))
      if (wanted.length > 0) {
        const answer = await fetchIcons(prefix, wanted)
        if (!answer) {
          for (const name of wanted) rememberMiss(`${prefix}:${name}`)
        }
        else {
          for (const key of COLLECTION_DEFAULTS) {
            if (typeof answer[key] === 'number') collection.defaults[key] = answer[key]
          }
          for (const [name, icon] of Object.entries(answer.icons)) {
            if (cachedIcons >= maxCachedIcons) break
            if (!Object.hasOwn(collection.icons, name)) cachedIcons++
            collection.icons[name] = icon
            collection.dirty = true
          }
          for (const [name, alias] of Object.entries(answer.aliases ?? {})) collection.aliases[name] = alias
          for (const name of wanted) {
            if (!Object.hasOwn(answer.icons, name) && !Object.hasOwn(answer.aliases ?? {}, name)) rememberMiss(`${prefix}:${name}`)
          }
          await persist(cacheDir, prefix, collection)
          // an answer past the cache's bound is still served once
          if (cachedIcons >= maxCachedIcons) return getIcons(answer, [...names], true) ?? { prefix, icons: {}, not_found: [...names] }
        }
      }
      const data: IconifyJSON = { prefix, ...collection.defaults, icons: collection.icons, aliases: collection.aliases }
      return getIcons(data, [...names], true) ?? { prefix, icons: {}, not_found: [...names] }
    },
  }
}

/** The answer, if it is an Iconify collection of `prefix` whose every icon is safe to inline; else undefined. */
function checkAnswer(text: string, prefix: string): IconifyJSON | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  }
  catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const answer = value as Record<string, unknown>
  if (answer.prefix !== prefix || typeof answer.icons !== 'object' || answer.icons === null) return undefined
  const icons: Record<string, IconifyIcon> = Object.create(null)
  for (const [name, icon] of Object.entries(answer.icons as Record<string, unknown>)) {
    const checked = checkIcon(name, icon)
    if (checked) icons[name] = checked
  }
  const aliases: Record<string, IconifyAlias> = Object.create(null)
  if (typeof answer.aliases === 'object' && answer.aliases !== null) {
    for (const [name, alias] of Object.entries(answer.aliases as Record<string, unknown>)) {
      const parent = (alias as { parent?: unknown } | null)?.parent
      if (ICONIFY_NAME.test(name) && typeof parent === 'string' && ICONIFY_NAME.test(parent) && Object.hasOwn(icons, parent)) aliases[name] = { parent }
    }
  }
  const data: IconifyJSON = { prefix, icons, aliases }
  for (const key of COLLECTION_DEFAULTS) {
    if (typeof answer[key] === 'number' && Number.isFinite(answer[key])) data[key] = answer[key] as number
  }
  return data
}

function checkIcon(name: string, icon: unknown): IconifyIcon | undefined {
  if (!ICONIFY_NAME.test(name) || typeof icon !== 'object' || icon === null) return undefined
  const { body, width, height, left, top, rotate, hFlip, vFlip } = icon as Record<string, unknown>
  if (typeof body !== 'string' || body.length > MAX_BODY_CHARS || UNSAFE_BODY.test(body)) return undefined
  const checked: IconifyIcon = { body }
  const numbers = { width, height, left, top, rotate }
  for (const [key, item] of Object.entries(numbers)) {
    if (typeof item === 'number' && Number.isFinite(item)) (checked as unknown as Record<string, number>)[key] = item
  }
  if (hFlip === true) checked.hFlip = true
  if (vFlip === true) checked.vFlip = true
  return checked
}

async function readBounded(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<string | undefined> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

async function readCached(cacheDir: string | undefined, prefix: string): Promise<CachedCollection> {
  const empty: CachedCollection = { defaults: {}, icons: Object.create(null), aliases: Object.create(null), dirty: false }
  if (!cacheDir) return empty
  try {
    const checked = checkAnswer(await readFile(join(cacheDir, `${prefix}.json`), 'utf8'), prefix)
    if (!checked) return empty
    const defaults: CachedCollection['defaults'] = {}
    for (const key of COLLECTION_DEFAULTS) {
      if (checked[key] !== undefined) defaults[key] = checked[key]
    }
    return { defaults, icons: checked.icons, aliases: checked.aliases ?? Object.create(null), dirty: false }
  }
  catch {
    return empty
  }
}

async function persist(cacheDir: string | undefined, prefix: string, collection: CachedCollection): Promise<void> {
  if (!cacheDir || !collection.dirty) return
  collection.dirty = false
  try {
    await mkdir(cacheDir, { recursive: true })
    const file = join(cacheDir, `${prefix}.json`)
    const scratch = `${file}.${process.pid}.tmp`
    await writeFile(scratch, JSON.stringify({ prefix, ...collection.defaults, icons: collection.icons, aliases: collection.aliases }))
    await rename(scratch, file)
  }
  catch {
    // a cache that cannot be written only costs a fetch after a restart
  }
}
