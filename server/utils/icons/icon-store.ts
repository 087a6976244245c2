import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { IconifyAlias, IconifyJSON } from '@iconify/types'
import { getIcons } from '@iconify/utils'
import { COLLECTION_DEFAULTS, ICONIFY_NAME, readShard, shardOf, splitCollection } from './icon-shards'
import type { CollectionMeta, IconShard, IconShardIndex } from './icon-shards'

/** Where the store reads collections from. */
export interface IconSource {
  /** Every collection it can serve; read once. */
  prefixes(): Promise<ReadonlySet<string>>
  /** A known collection's default box and shard count. */
  meta(prefix: string): Promise<CollectionMeta>
  /** One shard of a known collection, and its size in bytes (what the cache counts). */
  shard(prefix: string, index: number): Promise<{ shard: IconShard, bytes: number }>
  /** Every collection Iconify publishes, installed or not (those not installed may be fetched). */
  known?(): Promise<ReadonlySet<string>>
}

/** A build's shard folder (`.output/server/iconify`): `index.json` and `<prefix>/<n>.json.gz`. */
export function createShardFolderSource(folder: string): IconSource {
  let index: Promise<IconShardIndex> | undefined
  let collectionMap: Promise<Map<string, CollectionMeta>> | undefined
  let names: Promise<Set<string>> | undefined
  let knownNames: Promise<Set<string>> | undefined
  const readIndex = () => index ??= readFile(join(folder, 'index.json'), 'utf8').then(text => JSON.parse(text) as IconShardIndex)
  const collections = () => collectionMap ??= readIndex().then(read => new Map(Object.entries(read.collections)))
  return {
    prefixes: () => names ??= collections().then(map => new Set(map.keys())),
    known: () => knownNames ??= readIndex().then(read => new Set(read.known ?? [])),
    meta: async prefix => (await collections()).get(prefix)!,
    async shard(prefix, shardIndex) {
      const json = gunzipSync(await readFile(join(folder, prefix, `${shardIndex}.json.gz`))).toString('utf8')
      return { shard: readShard(json), bytes: json.length }
    },
  }
}

/**
 * The installed collections' JSON files (prefix → file), cut into shards in memory when a set is first asked for
 * (`npm run dev` and tests; a build ships shards instead). The last set cut is kept, so its other shards cost no
 * second parse.
 */
export function createIconifyJsonSource(files: Readonly<Record<string, string>>, known: readonly string[] = []): IconSource {
  const installed = new Set(Object.keys(files).filter(prefix => ICONIFY_NAME.test(prefix)))
  const knownSet = new Set(known)
  let last: { prefix: string, cut: Promise<ReturnType<typeof splitCollection>> } | undefined
  function cut(prefix: string) {
    if (last?.prefix !== prefix) {
      last = {
        prefix,
        cut: readFile(files[prefix]!, 'utf8')
          .then(text => splitCollection(JSON.parse(text) as IconifyJSON, Buffer.byteLength(text))),
      }
    }
    return last.cut
  }
  return {
    prefixes: async () => installed,
    known: async () => knownSet,
    meta: async prefix => (await cut(prefix)).meta,
    async shard(prefix, shardIndex) {
      const json = JSON.stringify((await cut(prefix)).shards[shardIndex])
      return { shard: readShard(json), bytes: json.length }
    },
  }
}

export interface IconStoreOptions {
  /** Bytes of shards kept in memory; least recently used go first. @default 32 MiB */
  cacheBytes?: number
}

/** Iconify's own limit on alias chains. */
const MAX_ALIAS_DEPTH = 36

export interface IconStore {
  /**
   * The icons asked for in Iconify's API format (`{ prefix, icons, aliases?, not_found? }`), aliases resolved to
   * their parents; names the set does not have are listed in `not_found`. Undefined for an unknown collection.
   */
  getIcons(prefix: string, names: readonly string[]): Promise<IconifyJSON | undefined>
}

/**
 * Answers icon requests from a source, keeping recently read shards up to a byte budget. Loads of one shard
 * that overlap share one read.
 */
export function createIconStore(source: IconSource, options: IconStoreOptions = {}): IconStore {
  const budget = options.cacheBytes ?? 32 * 1024 * 1024
  const cache = new Map<string, { shard: IconShard, bytes: number }>()
  const loading = new Map<string, Promise<IconShard>>()
  let cachedBytes = 0

  function remember(key: string, entry: { shard: IconShard, bytes: number }) {
    if (entry.bytes > budget) return
    cache.set(key, entry)
    cachedBytes += entry.bytes
    for (const [oldKey, old] of cache) {
      if (cachedBytes <= budget) break
      cache.delete(oldKey)
      cachedBytes -= old.bytes
    }
  }

  async function shardFor(prefix: string, meta: CollectionMeta, name: string): Promise<IconShard> {
    const index = shardOf(name, meta.shards)
    const key = `${prefix}/${index}`
    const hit = cache.get(key)
    if (hit) {
      cache.delete(key)
      cache.set(key, hit)
      return hit.shard
    }
    let pending = loading.get(key)
    if (!pending) {
      pending = source.shard(prefix, index).then((entry) => {
        remember(key, entry)
        return entry.shard
      }).finally(() => loading.delete(key))
      loading.set(key, pending)
    }
    return pending
  }

  const metas = new Map<string, Promise<CollectionMeta>>()
  function metaOf(prefix: string): Promise<CollectionMeta> {
    let meta = metas.get(prefix)
    if (!meta) {
      meta = source.meta(prefix)
      meta.catch(() => metas.delete(prefix))
      metas.set(prefix, meta)
    }
    return meta
  }

  return {
    async getIcons(prefix, names) {
      if (!(await source.prefixes()).has(prefix)) return undefined
      const meta = await metaOf(prefix)
      const partial: IconifyJSON = { prefix, icons: Object.create(null), aliases: Object.create(null) }
      for (const key of COLLECTION_DEFAULTS) {
        if (meta[key] !== undefined) partial[key] = meta[key]
      }
      for (const requested of names) {
        let name: string | undefined = requested
        for (let depth = 0; name && depth < MAX_ALIAS_DEPTH; depth++) {
          if (Object.hasOwn(partial.icons, name) || Object.hasOwn(partial.aliases!, name)) break
          const shard = await shardFor(prefix, meta, name)
          if (Object.hasOwn(shard.icons, name)) {
            partial.icons[name] = shard.icons[name]!
            break
          }
          if (!Object.hasOwn(shard.aliases, name)) break
          const alias: IconifyAlias = shard.aliases[name]!
          partial.aliases![name] = alias
          name = alias.parent
        }
      }
      return getIcons(partial, [...names], true) ?? { prefix, icons: {}, not_found: [...names] }
    },
  }
}
