#!/usr/bin/env node
// `npm start`: builds the app when there is no build yet (or the sources changed since), then serves it on
// http://localhost:3000. It opens on the offline demo model, so no key and no network are needed.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const BUILD_MARKER = '.output/nitro.json'
const SOURCES = ['app', 'server', 'shared', 'plugins', 'public', 'nuxt.config.ts', 'package-lock.json']

/** Newest modification time under `path`, in ms. */
function newestMtime(path) {
  if (!existsSync(path)) return 0
  const stats = statSync(path)
  if (!stats.isDirectory()) return stats.mtimeMs
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), stats.mtimeMs)
}

const stale = !existsSync(BUILD_MARKER)
  || process.argv.includes('--rebuild')
  || Math.max(...SOURCES.map(newestMtime)) > statSync(BUILD_MARKER).mtimeMs
if (stale) {
  const build = spawnSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['nuxt', 'build'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
const port = process.env.PORT ?? '3000'
console.log(`\nPlugboard is running at http://localhost:${port}\n`)
const server = spawn(process.execPath, ['.output/server/index.mjs'], { stdio: 'inherit', env: { ...process.env, PORT: port } })
server.on('exit', code => process.exit(code ?? 0))
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
