import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { ICONIFY_NAME } from './icon-shards'

/** The icon collections installed beside the app, by prefix: the JSON file of each, and a version for caching. */
export interface InstalledCollections {
  files: Record<string, string>
  /** Every collection Iconify publishes (`@iconify/collections`): the prefixes worth asking the Iconify API for. */
  known: string[]
  /** Changes when any installed collection does. */
  version: string
}

/**
 * Finds the collections installed in `node_modules`: one `@iconify-json/<prefix>` package per set (the app ships a
 * few), and every set when the operator installed `@iconify/json` (then everything stays offline).
 */
export function findInstalledCollections(rootDir: string): InstalledCollections {
  const require = createRequire(join(rootDir, 'package.json'))
  const files: Record<string, string> = Object.create(null)
  const versions: string[] = []
  const known = readKnownPrefixes(require)
  const full = tryResolve(require, '@iconify/json/package.json')
  if (full) {
    const folder = join(dirname(full), 'json')
    for (const file of readdirSync(folder)) {
      const prefix = file.replace(/\.json$/, '')
      if (file.endsWith('.json') && ICONIFY_NAME.test(prefix)) files[prefix] = join(folder, file)
    }
    versions.push(`json@${readVersion(full)}`)
  }
  for (const prefix of known) {
    if (files[prefix]) continue
    const packageFile = tryResolve(require, `@iconify-json/${prefix}/package.json`)
    if (!packageFile || !existsSync(join(dirname(packageFile), 'icons.json'))) continue
    files[prefix] = join(dirname(packageFile), 'icons.json')
    versions.push(`${prefix}@${readVersion(packageFile)}`)
  }
  return { files, known, version: versions.sort().join(',') }
}

function readKnownPrefixes(require: NodeJS.Require): string[] {
  const file = tryResolve(require, '@iconify/collections/collections.json')
  if (!file) return []
  const list = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  return Object.keys(list).filter(prefix => ICONIFY_NAME.test(prefix)).sort()
}

function readVersion(packageFile: string): string {
  return String((JSON.parse(readFileSync(packageFile, 'utf8')) as { version?: unknown }).version ?? '0')
}

function tryResolve(require: NodeJS.Require, id: string): string | undefined {
  try {
    return require.resolve(id)
  }
  catch {
    return undefined
  }
}
