import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createIconStore, createIconifyJsonSource, createShardFolderSource } from './icon-store'
import type { IconSource, IconStore } from './icon-store'
import { createRemoteIconStore } from './remote-icon-store'

/** The folder name of the shards beside a build's server entry (`.output/server/iconify`). */
export const ICON_SHARD_FOLDER = 'iconify'

/** The build's shard folder: the nearest `iconify/index.json` beside an `index.mjs`, walking up from this chunk. */
function findBuiltShards(from: string): string | undefined {
  let folder = from
  for (let level = 0; level < 6; level++) {
    const candidate = join(folder, ICON_SHARD_FOLDER)
    if (existsSync(join(candidate, 'index.json')) && existsSync(join(folder, 'index.mjs'))) return candidate
    const parent = dirname(folder)
    if (parent === folder) break
    folder = parent
  }
  return undefined
}

const EMPTY: IconStore = { getIcons: async () => undefined }

export interface IconStoreConfig {
  /** `NUXT_ICON_DATA_DIR`: a shard folder elsewhere than beside the server entry. */
  iconDataDir?: unknown
  /** `npm run dev`: the installed collections' files (prefix → file) and Iconify's list of collections. */
  iconSourceFiles?: unknown
  iconKnownPrefixes?: unknown
  /** `NUXT_ICONIFY_API_URL`: where collections not installed are fetched from; empty = installed ones only. */
  iconifyApiUrl?: unknown
  /** `NUXT_ICON_CACHE_DIR`: where fetched icons are kept. @default '.data/icons' */
  iconCacheDir?: unknown
}

let store: IconStore | undefined

/**
 * The server's one icon store: the installed collections (`NUXT_ICON_DATA_DIR` when set, else the build's shards,
 * else, in `npm run dev`, the installed packages' files), and for any other collection Iconify publishes, the
 * Iconify API through this server (`NUXT_ICONIFY_API_URL`), cached on disk.
 */
export function useIconStore(config: IconStoreConfig): IconStore {
  if (store) return store
  const configured = typeof config.iconDataDir === 'string' && config.iconDataDir ? config.iconDataDir : undefined
  const built = configured ?? findBuiltShards(dirname(fileURLToPath(import.meta.url)))
  const files = isStringRecord(config.iconSourceFiles) ? config.iconSourceFiles : undefined
  const known = Array.isArray(config.iconKnownPrefixes) ? config.iconKnownPrefixes.filter((item): item is string => typeof item === 'string') : []
  const source: IconSource | undefined = built ? createShardFolderSource(built) : files ? createIconifyJsonSource(files, known) : undefined
  const local = source ? createIconStore(source) : EMPTY
  const apiUrl = typeof config.iconifyApiUrl === 'string' ? config.iconifyApiUrl.trim() : ''
  if (!source || !apiUrl) return (store = local)
  const cacheDir = typeof config.iconCacheDir === 'string' && config.iconCacheDir ? config.iconCacheDir : resolve('.data/icons')
  const remote = createRemoteIconStore({ apiUrl, cacheDir, known: async () => (await source.known?.()) ?? new Set() })
  store = { getIcons: async (prefix, names) => (await local.getIcons(prefix, names)) ?? remote.getIcons(prefix, names) }
  return store
}

/** Forgets the store (tests that change the configuration). */
export function resetIconStore(): void {
  store = undefined
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(item => typeof item === 'string')
}
