import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createIconStore, createIconifyJsonSource, createShardFolderSource } from './icon-store'
import type { IconStore } from './icon-store'

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

let store: IconStore | undefined

/**
 * The server's one icon store: `NUXT_ICON_DATA_DIR` when set, else the build's shards, else (`npm run dev`)
 * `@iconify/json`'s folder as the dev server found it. Without any, every collection is unknown.
 */
export function useIconStore(config: { iconDataDir?: unknown, iconSourceFolder?: unknown }): IconStore {
  if (store) return store
  const configured = typeof config.iconDataDir === 'string' && config.iconDataDir ? config.iconDataDir : undefined
  const built = configured ?? findBuiltShards(dirname(fileURLToPath(import.meta.url)))
  const source = typeof config.iconSourceFolder === 'string' && config.iconSourceFolder ? config.iconSourceFolder : undefined
  store = built ? createIconStore(createShardFolderSource(built)) : source ? createIconStore(createIconifyJsonSource(source)) : EMPTY
  return store
}
