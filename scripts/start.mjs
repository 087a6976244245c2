#!/usr/bin/env node
// `npm start`: builds the app when there is no build yet, then serves it on http://localhost:3000.
// It opens on the offline demo model, so no key and no network are needed.
import { spawnSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'

if (!existsSync('.output/server/index.mjs') || process.argv.includes('--rebuild')) {
  const build = spawnSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['nuxt', 'build'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
const port = process.env.PORT ?? '3000'
console.log(`\nPlugboard is running at http://localhost:${port}\n`)
const server = spawn(process.execPath, ['.output/server/index.mjs'], { stdio: 'inherit', env: { ...process.env, PORT: port } })
server.on('exit', code => process.exit(code ?? 0))
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
