// The first load measured from outside: open `/` of a built app in Chromium, list every script and stylesheet the
// page fetched until it was ready for input (`__plugboardReady`), and sum their gzip sizes. With source maps in the
// build (`PLUGBOARD_SOURCEMAP=1 npx nuxt build`) it also names what inside the files weighs most, so a byte the
// first screen does not need can be traced to the import that pulled it in.
//
//   node --import tsx bench/ui/first-load-bytes.ts [--output .output] [--top 10] [--json file]
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { SourceMapConsumer } from 'source-map-js'
import { startBenchApp } from './app-server'

const argv = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const index = argv.indexOf(`--${name}`)
  return index >= 0 ? argv[index + 1]! : fallback
}
const outputDir = resolve(option('output', '.output'))
const top = Number(option('top', '10'))
const jsonFile = option('json', '')
/** The first load's budget, JavaScript gzip-compressed. */
const TARGET_KB = 250

const gzipBytes = (text: string | Buffer) => gzipSync(text).length
const kb = (bytes: number) => Math.round(bytes / 102.4) / 10

/** Where a source of a map comes from: its package, or the app's own file. */
function sourceOwner(source: string): string {
  const parts = source.split('node_modules/')
  if (parts.length > 1) {
    const path = parts.at(-1)!.split('/')
    return path[0]!.startsWith('@') ? `${path[0]}/${path[1]}` : path[0]!
  }
  return source.replace(/^(\.\.\/)+/, '').replace(/^\/work\/[^/]+\//, '')
}

/** The generated text of `code` split by the source each mapped run of characters came from. */
function textBySource(code: string, map: SourceMapConsumer, name: (source: string) => string): Map<string, string> {
  const lines = code.split('\n')
  const runs: { line: number, column: number, source: string }[] = []
  map.eachMapping((mapping) => {
    runs.push({ line: mapping.generatedLine - 1, column: mapping.generatedColumn, source: mapping.source ? name(mapping.source) : '(unmapped)' })
  }, undefined, SourceMapConsumer.GENERATED_ORDER)
  const texts = new Map<string, string[]>()
  runs.forEach((run, index) => {
    const next = runs[index + 1]
    const line = lines[run.line] ?? ''
    const end = next && next.line === run.line ? next.column : line.length
    const list = texts.get(run.source) ?? []
    list.push(line.slice(run.column, end))
    texts.set(run.source, list)
  })
  return new Map([...texts].map(([source, list]) => [source, list.join('')]))
}

const app = await startBenchApp(outputDir, {}, 'first-load-bytes')
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || undefined, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
try {
  const page = await browser.newPage()
  await page.goto(`${app.url}/`, { waitUntil: 'commit' })
  await page.waitForFunction(() => (window as unknown as { __plugboardReady?: boolean }).__plugboardReady === true, undefined, { timeout: 60_000 })
  // what was requested before the page marked itself ready, as tests/e2e/first-load.spec.ts counts: the rest of the
  // catalog, fetched in the task after, may already be in when the wait above sees the flag
  const paths = await page.evaluate(() => [...new Set(performance.getEntriesByType('resource')
    .filter(entry => entry.startTime <= (performance.getEntriesByName('plugboard:ready', 'mark')[0]?.startTime ?? Infinity))
    .map(entry => new URL(entry.name).pathname)
    .filter(path => path.endsWith('.js') || path.endsWith('.css')))])

  const files = paths.map((path) => {
    const code = readFileSync(resolve(outputDir, `public${path}`), 'utf8')
    return { path, kind: path.endsWith('.css') ? 'css' : 'js', rawBytes: Buffer.byteLength(code), gzipBytes: gzipBytes(code), code }
  }).sort((a, b) => b.gzipBytes - a.gzipBytes)
  const total = (kind?: string) => files.filter(file => !kind || file.kind === kind).reduce((sum, file) => sum + file.gzipBytes, 0)

  // Each source's share of a file: its characters gzipped alone (an estimate; shared context is not counted twice).
  const owners = new Map<string, number>()
  const sources = new Map<string, number>()
  for (const file of files) {
    const mapFile = resolve(outputDir, `public${file.path}.map`)
    if (!existsSync(mapFile)) continue
    const map = new SourceMapConsumer(JSON.parse(readFileSync(mapFile, 'utf8')))
    for (const [source, text] of textBySource(file.code, map, source => source)) {
      const bytes = gzipBytes(text)
      sources.set(`${source.replace(/^(\.\.\/)+(node_modules\/)?/, '')} (${file.path.split('/').pop()})`, bytes)
      owners.set(sourceOwner(source), (owners.get(sourceOwner(source)) ?? 0) + bytes)
    }
  }

  console.log(`First load of ${app.url}/ (${outputDir}): ${files.length} files, ${kb(total())} KB gzip (JS ${kb(total('js'))} KB, CSS ${kb(total('css'))} KB)`)
  console.log(`Target: JavaScript <= ${TARGET_KB} KB gzip (as bench:ui counts the first load): ${kb(total('js')) <= TARGET_KB ? 'met' : 'missed'}`)
  console.table(files.map(file => ({ file: file.path, 'raw KB': kb(file.rawBytes), 'gzip KB': kb(file.gzipBytes) })))
  const ranked = (entries: Map<string, number>) => [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)
    .map(([name, bytes]) => ({ name, 'gzip KB (alone)': kb(bytes) }))
  if (owners.size) {
    console.log(`Top ${top} packages and app files (gzip of their own characters; needs a build with source maps)`)
    console.table(ranked(owners))
    console.log(`Top ${top} source files`)
    console.table(ranked(sources))
  }
  else console.log('No source maps in this build: build with PLUGBOARD_SOURCEMAP=1 npx nuxt build to see what the files hold.')
  if (jsonFile) {
    writeFileSync(jsonFile, JSON.stringify({
      gzipKb: kb(total()),
      jsGzipKb: kb(total('js')),
      cssGzipKb: kb(total('css')),
      files: files.map(file => ({ path: file.path, rawKb: kb(file.rawBytes), gzipKb: kb(file.gzipBytes) })),
      owners: ranked(owners),
    }, null, 2))
  }
}
finally {
  await browser.close()
  await app.stop()
}
