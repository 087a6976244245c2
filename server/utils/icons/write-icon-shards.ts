import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
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
 * Build step: every installed collection (`files`: prefix → its JSON file) → `<out>/<prefix>/<n>.json.gz` and
 * `<out>/index.json`, which also lists `known`, the collections the Iconify API may be asked for. Prefixes that are
 * not Iconify names, and files that hold another prefix, are skipped, so no name can leave the folder.
 */
export async function writeIconShards(files: Readonly<Record<string, string>>, outFolder: string, version: string, known: readonly string[] = []): Promise<WriteIconShardsResult> {
  await rm(outFolder, { recursive: true, force: true })
  await mkdir(outFolder, { recursive: true })
  const index: IconShardIndex = { version, collections: {}, known: known.filter(prefix => ICONIFY_NAME.test(prefix)) }
  let written = 0
  let bytes = 0
  for (const prefix of Object.keys(files).sort()) {
    if (!ICONIFY_NAME.test(prefix)) continue
    const text = await readFile(files[prefix]!, 'utf8')
    const data = JSON.parse(text) as IconifyJSON
    if (data.prefix !== prefix) continue
    const { meta, shards } = splitCollection(data, Buffer.byteLength(text))
    await mkdir(join(outFolder, prefix))
    for (const [shardIndex, shard] of shards.entries()) {
      const gz = gzipSync(JSON.stringify(shard), { level: 1 })
      await writeFile(join(outFolder, prefix, `${shardIndex}.json.gz`), gz)
      written++
      bytes += gz.length
    }
    index.collections[prefix] = meta
  }
  const indexJson = JSON.stringify(index)
  await writeFile(join(outFolder, 'index.json'), indexJson)
  return { collections: Object.keys(index.collections).length, files: written + 1, bytes: bytes + indexJson.length }
}
