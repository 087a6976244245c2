import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { IconifyJSON } from '@iconify/types'
import { ICONIFY_NAME, splitCollection } from './icon-shards'
import type { IconShardIndex } from './icon-shards'

export interface WriteIconShardsResult {
  collections: number
  files: number
  /** Bytes written (gzip). */
  bytes: number
}

/**
 * Build step: every `<prefix>.json` of `@iconify/json`'s `json/` folder → `<out>/<prefix>/<n>.json.gz` and
 * `<out>/index.json`. Files whose prefix is not an Iconify name are skipped, so no name can leave the folder.
 */
export async function writeIconShards(sourceFolder: string, outFolder: string, version: string): Promise<WriteIconShardsResult> {
  await rm(outFolder, { recursive: true, force: true })
  await mkdir(outFolder, { recursive: true })
  const index: IconShardIndex = { version, collections: {} }
  let files = 0
  let bytes = 0
  for (const file of (await readdir(sourceFolder)).sort()) {
    const prefix = file.replace(/\.json$/, '')
    if (!file.endsWith('.json') || !ICONIFY_NAME.test(prefix)) continue
    const text = await readFile(join(sourceFolder, file), 'utf8')
    const data = JSON.parse(text) as IconifyJSON
    if (data.prefix !== prefix) continue
    const { meta, shards } = splitCollection(data, Buffer.byteLength(text))
    await mkdir(join(outFolder, prefix))
    for (const [shardIndex, shard] of shards.entries()) {
      const gz = gzipSync(JSON.stringify(shard), { level: 1 })
      await writeFile(join(outFolder, prefix, `${shardIndex}.json.gz`), gz)
      files++
      bytes += gz.length
    }
    index.collections[prefix] = meta
  }
  const indexJson = JSON.stringify(index)
  await writeFile(join(outFolder, 'index.json'), indexJson)
  return { collections: Object.keys(index.collections).length, files: files + 1, bytes: bytes + indexJson.length }
}
