// `npm run bench:ui`: the browser figures (opening, scrolling, streaming, first load, start-up), each beside its baseline, in one run, in Chromium over the built
// app (`nuxt build` first). Writes bench/results/ui.json. Speed is reported here, never asserted in tests.
//
//   npm run bench:ui                               this build (.output)
//   npm run bench:ui -- --baseline /path/.output   and another build (e.g. main's) side by side, as "before"
//   npm run bench:ui -- --build /path/.output      measure that build instead of .output
//   npm run bench:ui -- --only first-load,open      only these parts (first-load, open, scroll, stream, paint, search, startup)
//   npm run bench:ui -- --only paint --paint-rounds 9  token to paint over more interleaved rounds (default 5)
//   npm run bench:ui -- --only stream --trace       and what each long task of the stream (or scroll) was (Chromium trace)
//   npm run bench:ui -- --only open --open-pairs 9  more pairs of opens (empty, then long) for a steadier ratio
//   npm run bench:ui -- --only scroll --cpu-throttle 4  the scroll with Chromium's CPU slowed 4× (a slow laptop)
//   npm run bench:ui -- --variant before=/a/.output --variant after=.output --repeat 3
//                                                  builds side by side, interleaved over 3 rounds (compare.ts); with
//                                                  --only stream (open, stream, paint, first-load) only those figures
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { chromium } from '@playwright/test'
import { printTable, writeResult } from '../lib'
import { startBenchApp, type BenchApp } from './app-server'
import { measureFirstLoad } from './first-load'
import { measureLongChat, measureScrollToTop } from './long-chat'
import { longMarkdownReply, startLongReplyModel } from './long-reply'
import { measureStreaming } from './stream-reply'
import { measureSearchHistory } from './search-history'
import { measureStartup } from './startup'
import { compareBuilds } from './compare'
import { measureTokenPaintRounds } from './token-paint'
import { WriteLog } from './token-match'

const argv = process.argv.slice(2)
const baselineIndex = argv.indexOf('--baseline')
const buildIndex = argv.indexOf('--build')
const builds: Array<{ label: string, output: string }> = [{ label: 'this build', output: resolve(buildIndex >= 0 ? argv[buildIndex + 1]! : '.output') }]
if (baselineIndex >= 0 && argv[baselineIndex + 1]) builds.unshift({ label: 'baseline', output: resolve(argv[baselineIndex + 1]!) })

// `--open-pairs N`: how many empty/long pairs of opens (default 5)
const pairsIndex = argv.indexOf('--open-pairs')
const openPairs = pairsIndex >= 0 ? Number(argv[pairsIndex + 1]) : 5
const throttleIndex = argv.indexOf('--cpu-throttle')
const onlyIndex = argv.indexOf('--only')
const parts = new Set(onlyIndex >= 0 ? argv[onlyIndex + 1]!.split(',') : ['first-load', 'open', 'scroll', 'stream', 'paint', 'search', 'startup'])

const variants = argv.flatMap((value, index) => (value === '--variant' && argv[index + 1] ? [argv[index + 1]!] : []))
  .map((value) => {
    const [label, output] = value.split('=')
    return { label: label!, output: resolve(output!) }
  })
const repeatIndex = argv.indexOf('--repeat')
const paintRoundsIndex = argv.indexOf('--paint-rounds')
const paintRounds = paintRoundsIndex >= 0 ? Number(argv[paintRoundsIndex + 1]) : 5

const reply = longMarkdownReply(20_000)
const trickle = new WriteLog()
const model = await startLongReplyModel(reply, undefined, trickle)
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
})

// The machine's load average (1, 5, 15 min) before and after: timings on a shared machine mean little without it.
const loadAverage = (): number[] => loadavg().map(value => Math.round(value * 100) / 100)
const results: Record<string, unknown> = { replyChars: reply.length, replyTokens: Math.round(reply.length / 4), loadAverageBefore: loadAverage() }
const openRows: Record<string, string | number>[] = []
const pairRows: Record<string, string | number>[] = []
const streamRows: Record<string, string | number>[] = []
const paintRows: Record<string, string | number>[] = []
const loadRows: Record<string, string | number>[] = []
const searchRows: Record<string, string | number>[] = []
const scrollRows: Record<string, string | number>[] = []
const startupRows: Record<string, string | number>[] = []
const apps: BenchApp[] = []
const modelEnv = {
  NUXT_OPENROUTER_API_KEY: 'sk-or-bench',
  NUXT_OPENROUTER_BASE_URL: `${model.url}/api/v1`,
  NUXT_PUBLIC_DEFAULT_MODEL: 'bench/long-markdown',
}
try {
  if (variants.length) {
    const started: Array<{ label: string, app: BenchApp }> = []
    for (const variant of variants) {
      const app = await startBenchApp(variant.output, modelEnv, variant.label.replace(/\W+/g, '-'))
      apps.push(app)
      started.push({ label: variant.label, app })
      console.log(`${variant.label}: ${variant.output} at ${app.url}`)
    }
    results.variants = await compareBuilds(browser, started, reply, trickle, repeatIndex >= 0 ? Number(argv[repeatIndex + 1]) : 3, parts)
  }
  for (const build of variants.length ? [] : builds) {
    const app = await startBenchApp(build.output, modelEnv, build.label.replace(/\W+/g, '-'))
    apps.push(app)
    console.log(`${build.label}: ${build.output} at ${app.url}`)

    const result: Record<string, unknown> = {}
    results[build.label] = result
    if (parts.has('first-load')) {
      const firstLoad = result.firstLoad = await measureFirstLoad(browser, app.url)
      loadRows.push({ build: build.label, scripts: firstLoad.scripts, 'raw KB': firstLoad.rawKb, 'gzip KB': firstLoad.gzipKb, 'brotli KB': firstLoad.brotliKb, 'sent KB': firstLoad.transferredKb, 'encoding (gzip/br asked)': firstLoad.contentEncoding, 'cache-control /_nuxt/': firstLoad.cacheControl })
    }

    if (parts.has('open')) {
      const open = result.open = await measureLongChat(browser, app.url, openPairs)
      for (const [what, result, worst, ratio] of [
        ['empty chat', open.empty, open.worstTaskMs.empty, ''],
        ['2,000 messages, 500 tool calls', open.long, open.worstTaskMs.long, `${open.ratio}× (${open.ratioRange[0]}–${open.ratioRange[1]})`],
      ] as const) {
        openRows.push({ build: build.label, chat: what, 'newest visible ms': result.visibleMs, '× empty (pairs)': ratio, 'long tasks': result.longTasks, 'longest ms': result.longestTaskMs, 'worst ms': worst, 'DOM nodes': result.domNodes })
      }
      for (const [index, pair] of open.pairs.entries()) {
        pairRows.push({ build: build.label, pair: index + 1, 'load (1 min)': pair.loadAverage, 'empty ms': pair.empty.visibleMs, 'long ms': pair.long.visibleMs, ratio: pair.ratio, 'empty longest task': pair.empty.longestTaskMs, 'long longest task': pair.long.longestTaskMs })
      }
    }

    if (parts.has('scroll')) {
      const scroll = result.scrollToTop = await measureScrollToTop(browser, app.url, { trace: argv.includes('--trace'), cpuThrottle: throttleIndex >= 0 ? Number(argv[throttleIndex + 1]) : undefined })
      for (const task of scroll.longTaskBreakdown ?? []) console.log(`${build.label} (scroll): long task ${task.durationMs} ms at ${task.atMs} ms`, JSON.stringify(task.events), '\n  ', task.functions.map(entry => `${entry.ms} ms ${entry.name}`).join('\n   '))
      scrollRows.push({ build: build.label, 'first message reached ms': scroll.reachedMs, 'wheel turns': scroll.wheelTurns, 'long tasks': scroll.longTasks, 'longest ms': scroll.longestTaskMs, 'DOM nodes': scroll.domNodes })
    }

    if (parts.has('stream')) {
      const stream = result.stream = await measureStreaming(browser, app.url, reply, { trace: argv.includes('--trace') })
      for (const task of stream.app.longTaskBreakdown ?? []) console.log(`${build.label}: long task ${task.durationMs} ms at ${task.atMs} ms`, JSON.stringify(task.events), '\n  ', task.functions.map(entry => `${entry.ms} ms ${entry.name}`).join('\n   '))
      const serverRun = result.streamServerRun = (await measureStreaming(browser, app.url, reply, { trace: argv.includes('--trace'), runOnServer: true })).app
      for (const task of serverRun.longTaskBreakdown ?? []) console.log(`${build.label} (server-run): long task ${task.durationMs} ms at ${task.atMs} ms`, JSON.stringify(task.events), '\n  ', task.functions.map(entry => `${entry.ms} ms ${entry.name}`).join('\n   '))
      for (const [what, result] of [['app (streamed, loop in the tab)', stream.app], ['app (run on the server, SSE to the tab)', serverRun], ['naive full re-render per frame', stream.naive!]] as const) {
        streamRows.push({ build: build.label, render: what, 'duration ms': result.durationMs, 'long tasks': result.longTasks, 'longest ms': result.longestTaskMs, 'identical to whole': String(result.identical) })
      }
    }
    if (parts.has('paint')) {
      const paint = result.tokenPaint = await measureTokenPaintRounds(browser, app.url, trickle, paintRounds)
      for (const [way, figures] of Object.entries(paint.ways)) {
        paintRows.push({ build: build.label, chat: way, 'p50 ms': figures.p50Ms, 'p95 ms (target ≤ 30)': figures.p95Ms, 'p95 per round': figures.roundP95Ms.join(' '), 'rounds kept': `${figures.kept} of ${paintRounds}`, 'load (1 min) per round': paint.loads.join(' ') })
        for (const reason of figures.rejected) console.log(`${build.label}, ${way}: left out, ${reason}`)
      }
    }
    if (parts.has('search')) {
      const search = result.search = await measureSearchHistory(browser, app.url)
      searchRows.push({ build: build.label, messages: search.messages, 'no match ms': search.missMs, 'oldest message ms': search.oldestHitMs, 'oldest found': String(search.oldestFound), 'first call ms': search.firstCallMs, 'full scan: no match ms': search.fullScanMissMs, 'full scan: oldest ms': search.fullScanOldestHitMs })
    }
    if (parts.has('startup')) {
      const startup = result.startup = await measureStartup(browser, app.url)
      for (const row of [startup.empty, startup.full]) startupRows.push({ build: build.label, 'stored messages': row.messages, 'ready ms': row.readyMs, 'mark interrupted ms': row.markInterruptedMs ?? '—', 'full scan (before the index) ms': row.fullScanMs, 'long tasks': row.longTasks, 'longest ms': row.longestTaskMs })
    }
  }
}
finally {
  await browser.close()
  for (const app of apps) await app.stop()
  await model.close()
}

if (openRows.length) printTable(`Open a chat (median of ${openPairs} pairs, after one unmeasured open of each): from page load until its newest message is visible; "worst ms" is the longest task of any open`, openRows)
if (pairRows.length) printTable('Each pair: an empty open, then a long one at once (the ratio compares opens under the same load)', pairRows)
if (scrollRows.length) printTable('Scroll to the top of the 2k chat with the mouse wheel (older turns paged in on the way): long tasks', scrollRows)
if (streamRows.length) printTable(`Stream a ${Math.round(reply.length / 4)}-token markdown reply with code blocks at loopback speed (target: no task over 100 ms)`, streamRows)
if (paintRows.length) printTable(`Token to paint: a word written by the upstream every 40 ms until the frame that shows it (${paintRounds} interleaved rounds, every token of the kept rounds)`, paintRows)
if (loadRows.length) printTable('JavaScript loaded before first interaction', loadRows)
if (searchRows.length) printTable('search_chat_history over 12,000 stored messages (median of 5; the first call indexes the rows written around the app)', searchRows)
if (startupRows.length) printTable('Start-up (the new-chat screen) with an empty database and with 12,000 stored messages (median of 3)', startupRows)
results.loadAverageAfter = loadAverage()
console.log(`\nLoad average (1, 5, 15 min): ${(results.loadAverageBefore as number[]).join(', ')} before, ${(results.loadAverageAfter as number[]).join(', ')} after`)
console.log(`\nResults written to ${await writeResult('ui', results)}`)
