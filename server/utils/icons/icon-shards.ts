import type { IconifyAlias, IconifyIcon, IconifyJSON } from '@iconify/types'

/**
 * The app serves its installed Iconify collections (a few `@iconify-json/*` sets, or all of `@iconify/json` when
 * the operator installs it) without loading a whole set to answer one icon: at build time each set is cut into shards of about SHARD_TARGET_BYTES, an icon's (or
 * alias's) shard chosen by a hash of its name, so a request reads only the shards of the names it asks for.
 */

/** Iconify's rule for icon names and collection prefixes (every name in `@iconify/json` matches it). */
export const ICONIFY_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** About how many bytes of source JSON go into one shard. */
export const SHARD_TARGET_BYTES = 128 * 1024

/** What the server keeps of a collection beside its icons: their default box, and how many shards hold them. */
export interface CollectionMeta {
  shards: number
  width?: number
  height?: number
  left?: number
  top?: number
  lastModified?: number
}

/** One shard: the icons and aliases whose names hash to it. Null-prototype objects once read. */
export interface IconShard {
  icons: Record<string, IconifyIcon>
  aliases: Record<string, IconifyAlias>
}

/** The shard folder's `index.json`: every collection the app serves. */
export interface IconShardIndex {
  /** The installed collections' versions the shards were cut from. */
  version: string
  collections: Record<string, CollectionMeta>
  /** Every collection Iconify publishes: those not installed may be fetched from the Iconify API. */
  known?: string[]
}

/** FNV-1a (32 bit) of the name, modulo the shard count: the same on the build machine and the server. */
export function shardOf(name: string, shards: number): number {
  let hash = 0x811C9DC5
  for (let index = 0; index < name.length; index++) {
    hash ^= name.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash % shards
}

/** The collection-wide fields an answer carries beside its icons. */
export const COLLECTION_DEFAULTS = ['width', 'height', 'left', 'top', 'lastModified'] as const

/** Cuts a collection into shards; `sourceBytes` (its JSON's size) decides how many. */
export function splitCollection(data: IconifyJSON, sourceBytes: number): { meta: CollectionMeta, shards: IconShard[] } {
  const count = Math.max(1, Math.ceil(sourceBytes / SHARD_TARGET_BYTES))
  const shards: IconShard[] = Array.from({ length: count }, () => ({ icons: {}, aliases: {} }))
  for (const [name, icon] of Object.entries(data.icons)) shards[shardOf(name, count)]!.icons[name] = icon
  for (const [name, alias] of Object.entries(data.aliases ?? {})) shards[shardOf(name, count)]!.aliases[name] = alias
  const meta: CollectionMeta = { shards: count }
  for (const key of COLLECTION_DEFAULTS) {
    if (typeof data[key] === 'number') meta[key] = data[key]
  }
  return { meta, shards }
}

/** A shard read back from JSON, with null-prototype maps so `constructor` or `__proto__` is never an icon. */
export function readShard(json: string): IconShard {
  const parsed = JSON.parse(json) as Partial<IconShard>
  return {
    icons: Object.assign(Object.create(null) as Record<string, IconifyIcon>, parsed.icons),
    aliases: Object.assign(Object.create(null) as Record<string, IconifyAlias>, parsed.aliases),
  }
}
