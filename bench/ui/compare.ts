// `npm run bench:ui -- --variant before=/path/.output --variant after=.output [--repeat 3]`: builds side by side,
// interleaved (each round measures every build in turn), so a busy machine weighs on all of them alike. Each
// figure is reported as its median over the rounds with the lowest and highest, and as a ratio to the first build.
import { loadavg } from 'node:os'
import type { Browser } from '@playwright/test'
import { printTable } from '../lib'
import type { BenchApp } from './app-server'
import { measureFirstLoad } from './first-load'
import { measureLongChat } from './long-chat'
import { measureStreaming } from './stream-reply'
import { measureTokenPaint } from './token-paint'
import type { WriteLog } from './token-match'

/** Figures of one build in one round; lower is better for each. */
export type RoundFigures = Record<string, number>

/** The user-visible figures the variants are judged by (the targets are in the README's table), of the `parts` asked for. */
async function measureRound(browser: Browser, app: BenchApp, reply: string, trickle: WriteLog, parts: ReadonlySet<string>): Promise<RoundFigures> {
  const figures: RoundFigures = {}
  if (parts.has('open')) {
    const open = await measureLongChat(browser, app.url, 3)
    Object.assign(figures, {
      'empty app: newest visible ms': open.empty.visibleMs,
      '2k chat: newest visible ms': open.long.visibleMs,
      '2k chat ÷ empty app': open.ratio,
      'open: longest task ms': Math.max(open.worstTaskMs.empty, open.worstTaskMs.long),
    })
  }
  if (parts.has('stream')) {
    const stream = await measureStreaming(browser, app.url, reply, { naive: false })
    const serverRun = await measureStreaming(browser, app.url, reply, { runOnServer: true })
    Object.assign(figures, {
      'stream 20k (tab): longest task ms': stream.app.longestTaskMs,
      'stream 20k (tab): long tasks': stream.app.longTasks,
      'stream 20k (tab): duration ms': stream.app.durationMs,
      'stream 20k (server-run): longest task ms': serverRun.app.longestTaskMs,
      'stream 20k (server-run): long tasks': serverRun.app.longTasks,
      'stream 20k (server-run): duration ms': serverRun.app.durationMs,
    })
  }
  if (parts.has('paint')) {
    const paint = await measureTokenPaint(browser, app.url, trickle)
    const serverPaint = await measureTokenPaint(browser, app.url, trickle, { runOnServer: true })
    Object.assign(figures, {
      'token to paint (tab) p50 ms': paint.p50Ms,
      'token to paint (tab) p95 ms': paint.p95Ms,
      'token to paint (server-run) p50 ms': serverPaint.p50Ms,
      'token to paint (server-run) p95 ms': serverPaint.p95Ms,
    })
  }
  if (parts.has('first-load')) figures['first load gzip KB'] = (await measureFirstLoad(browser, app.url)).gzipKb
  return figures
}

/** The user-visible targets; the 50 ms bar for a stream's tasks on a loaded machine is retired for 100 ms. */
export const TARGETS: Record<string, string> = {
  '2k chat ÷ empty app': '≤ 1.5',
  'stream 20k (tab): longest task ms': '≤ 100',
  'stream 20k (server-run): longest task ms': '≤ 100',
  'token to paint (tab) p95 ms': '≤ 30',
  'token to paint (server-run) p95 ms': '≤ 30',
  'first load gzip KB': '≤ 250',
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
const round = (value: number) => Math.round(value * 100) / 100

/** Runs `rounds` rounds over `apps` (label → running app), measuring the `parts` asked for (`--only`), and prints one row per figure: each build's median [min–max] and ratio. */
export async function compareBuilds(browser: Browser, apps: Array<{ label: string, app: BenchApp }>, reply: string, trickle: WriteLog, rounds: number, parts: ReadonlySet<string>) {
  const figures = new Map<string, RoundFigures[]>(apps.map(({ label }) => [label, []]))
  for (let round = 0; round < rounds; round++) {
    // Each round starts with a different build, so none is always measured first.
    for (let turn = 0; turn < apps.length; turn++) {
      const { label, app } = apps[(round + turn) % apps.length]!
      const measured = await measureRound(browser, app, reply, trickle, parts)
      figures.get(label)!.push(measured)
      console.log(`round ${round + 1}: ${label} (load ${loadavg()[0]!.toFixed(2)}) ${JSON.stringify(measured)}`)
    }
  }
  const names = Object.keys(figures.get(apps[0]!.label)![0]!)
  const first = apps[0]!.label
  const rows = names.map((name) => {
    const row: Record<string, string | number> = { figure: name, target: TARGETS[name] ?? '' }
    const base = median(figures.get(first)!.map(round => round[name]!))
    for (const { label } of apps) {
      const values = figures.get(label)!.map(round => round[name]!)
      const middle = median(values)
      row[label] = `${round(middle)} [${round(Math.min(...values))}–${round(Math.max(...values))}]`
      if (label !== first) row[`${label} ÷ ${first}`] = base ? round(middle / base) : '—'
    }
    return row
  })
  printTable(`Builds side by side: median [lowest–highest] of ${rounds} interleaved rounds`, rows)
  return Object.fromEntries([...figures].map(([label, list]) => [label, list]))
}
