import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const resultsDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '../results')

/**
 * Writes `data` as pretty JSON to bench/results/<name>.json (with a `measuredAt` timestamp and the Node version)
 * and returns the file path.
 */
export async function writeResult(name: string, data: unknown): Promise<string> {
  await mkdir(resultsDirectory, { recursive: true })
  const path = resolve(resultsDirectory, `${name}.json`)
  const payload = { name, measuredAt: new Date().toISOString(), node: process.version, data }
  await writeFile(path, `${JSON.stringify(payload, null, 2)}\n`)
  return path
}
