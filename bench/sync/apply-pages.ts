// A new device writing a large account into IndexedDB, in real Chromium: this tree's `applyRemoteChanges` against
// the one of an earlier revision (`--before`, default main), side by side in one run, rounds interleaved and the
// order swapped each round. Each contender gets its own page size (what its engine asks for) and a fresh database;
// only the writes are timed (no HTTP, no UI), so the ratio is the client's apply path alone.
// Run: CHROMIUM_PATH=/usr/bin/chromium node --import tsx bench/sync/apply-pages.ts [--messages 10000] [--rounds 3] [--before main]
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from '@playwright/test'
import { build } from 'esbuild'
import type { Plugin } from 'esbuild'
import { median, printTable, startLoopbackServer, writeResult } from '../lib/index'
import { seedChanges } from './seed-changes'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const option = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`)
  return index > 0 ? process.argv[index + 1]! : fallback
}
const total = Number(option('messages', '10000'))
const rounds = Number(option('rounds', '3'))
const before = option('before', 'main')
const APPLY_PATH = 'app/db/sync/apply-remote-changes.ts'
// The page sizes each revision's engine asks for (the server's cap at the time).
const PAGE_SIZE = { before: Number(option('before-page', '1000')), after: Number(option('after-page', '2000')) }

/** Resolves the app's aliases, and `before:apply` to the earlier revision's file read from git, beside today's. */
const aliases: Plugin = {
  name: 'plugboard-aliases',
  setup(build) {
    const withExtension = (path: string) => [path, `${path}.ts`, join(path, 'index.ts')].find(candidate => existsSync(candidate) && !candidate.endsWith('/')) ?? path
    build.onResolve({ filter: /^(~|#shared)\// }, ({ path }) => ({ path: withExtension(join(root, path.startsWith('~/') ? 'app' : 'shared', path.replace(/^(~|#shared)\//, ''))) }))
    build.onResolve({ filter: /^before:apply$/ }, () => ({ path: 'before-apply', namespace: 'before' }))
    build.onLoad({ filter: /.*/, namespace: 'before' }, () => ({
      contents: execFileSync('git', ['show', `${before}:${APPLY_PATH}`], { cwd: root, encoding: 'utf8' }),
      loader: 'ts',
      resolveDir: join(root, dirname(APPLY_PATH)),
    }))
  },
}

const entry = `
import { PlugboardDatabase } from '~/db/database'
import { applyRemoteChanges as after } from '~/db/sync/apply-remote-changes'
import { applyRemoteChanges as before } from 'before:apply'
const contenders = { before, after }
let databases = 0
globalThis.runApply = async (name, changes, pageSize) => {
  const db = new PlugboardDatabase('bench-' + name + '-' + (++databases))
  await db.open()
  const started = performance.now()
  for (let offset = 0; offset < changes.length; offset += pageSize) {
    const page = changes.slice(offset, offset + pageSize)
    await contenders[name](db, page, page.at(-1).seq)
  }
  const ms = performance.now() - started
  const onPath = await db.messages.where('[threadId+onPath+seq]').between(['thread-0', 1, 0], ['thread-0', 1, Infinity]).count()
  const count = await db.messages.count()
  db.close()
  await indexedDB.deleteDatabase(db.name)
  return { ms, count, onPath }
}
`
const bundled = await build({
  stdin: { contents: entry, resolveDir: root, loader: 'ts' },
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'browser',
  define: { 'import.meta.dev': 'false', 'import.meta.client': 'true', 'import.meta.server': 'false' },
  plugins: [aliases],
  logLevel: 'error',
})
const script = bundled.outputFiles[0]!.text
const server = await startLoopbackServer((request, response) => {
  if (request.url === '/bench.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
  else response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script src="/bench.js"></script>')
})
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || undefined, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
try {
  const page = await browser.newPage()
  await page.goto(server.url)
  await page.waitForFunction(() => 'runApply' in globalThis)
  const changes = seedChanges(total).map((change, index) => ({ ...change, seq: index + 1 }))
  const times: Record<'before' | 'after', number[]> = { before: [], after: [] }
  const ratios: number[] = []
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['before', 'after'] as const : ['after', 'before'] as const
    for (const name of order) {
      const result = await page.evaluate(([name, changes, size]) => (globalThis as unknown as { runApply: (...args: unknown[]) => Promise<{ ms: number, count: number, onPath: number }> }).runApply(name, changes, size), [name, changes, PAGE_SIZE[name]] as const)
      if (result.count !== total || result.onPath !== Math.min(100, total)) throw new Error(`${name} left ${result.count} messages and ${result.onPath} marked on the first chat's path`)
      times[name].push(result.ms)
    }
    ratios.push(times.before.at(-1)! / times.after.at(-1)!)
  }
  const row = (name: 'before' | 'after') => ({ contender: name === 'before' ? `${before} (pages of ${PAGE_SIZE.before})` : `this tree (pages of ${PAGE_SIZE.after})`, 'median (s)': (median(times[name]) / 1000).toFixed(2), 'runs (s)': times[name].map(ms => (ms / 1000).toFixed(2)).join(' ') })
  printTable(`Writing ${total} pulled messages into IndexedDB (Chromium), ${rounds} interleaved rounds`, [row('before'), row('after')])
  const ratio = median(ratios)
  console.info(`before / after: ${ratio.toFixed(2)}× (rounds: ${ratios.map(value => value.toFixed(2)).join(', ')})`)
  console.info(`written to ${await writeResult('sync-apply-pages', { messages: total, before, 'before median (s)': median(times.before) / 1000, 'after median (s)': median(times.after) / 1000, 'before / after': ratio })}`)
}
finally {
  await browser.close()
  await server.close()
}
