// `node --import tsx bench/ui/open-cpu.ts <build>/.output [<other>/.output ...] [--runs N]`: opens the empty chat and
// the 2,000-message chat of each build in turn (one unmeasured round first) and reports each open's main-thread
// tasks by the thread's CPU time (a Chromium trace's `tdur`) beside their wall time. On a shared machine a task's wall
// time grows with the other processes' load (a 20 ms task took 40–540 ms at load 5–6); its CPU time does not, so this
// compares builds where `npm run bench:ui`'s long-task counts are mostly the machine's load. A tool, not a figure.
import { resolve } from 'node:path'
import { loadavg } from 'node:os'
import { chromium, type Page } from '@playwright/test'
import { importChat, longChat } from '../../tests/e2e/support/seed-chat'
import { startBenchApp } from './app-server'
import { installProbe, waitForVisible } from './page-probes'

interface TraceEvent { name: string, ph: string, ts: number, dur?: number, tdur?: number, tid: number, pid: number, args?: { data?: Record<string, unknown>, name?: string } }
const argv = process.argv.slice(2)
const runsIndex = argv.indexOf('--runs')
const runs = runsIndex >= 0 ? Number(argv[runsIndex + 1]) : 5
const builds = argv.filter((arg, index) => !arg.startsWith('--') && index !== runsIndex + 1)
if (builds.length === 0) builds.push('.output')

async function record(page: Page, url: string, selector: string) {
  const session = await page.context().newCDPSession(page)
  const events: TraceEvent[] = []
  session.on('Tracing.dataCollected', ({ value }) => { events.push(...(value as unknown as TraceEvent[])) })
  await session.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute', transferMode: 'ReportEvents' })
  await installProbe(page, selector)
  await page.goto(url, { waitUntil: 'commit' })
  await waitForVisible(page)
  await page.waitForTimeout(1000)
  const done = new Promise<void>(finish => session.once('Tracing.tracingComplete', () => finish()))
  await session.send('Tracing.end')
  await done
  const scriptPid = events.find(e => (e.name === 'EvaluateScript' || e.name === 'v8.compileModule') && String(e.args?.data?.url ?? '').includes('/_nuxt/'))?.pid
  const main = events.find(e => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === scriptPid)!
  const tasks = events.filter(e => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.name === 'RunTask')
  return tasks.map(t => ({ wall: (t.dur ?? 0) / 1000, cpu: (t.tdur ?? 0) / 1000 }))
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] })
const apps = await Promise.all(builds.map((b, i) => startBenchApp(resolve(b), {}, `cpu-open-${i}`)))
const chat = longChat('bench-long-chat', 2000)
const contexts = []
for (const app of apps) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const setup = await context.newPage()
  await setup.goto(app.url, { waitUntil: 'commit' })
  await setup.waitForFunction(() => (window as unknown as { __plugboardReady?: boolean }).__plugboardReady === true, undefined, { timeout: 60_000 })
  await importChat(setup, chat)
  await setup.close()
  contexts.push(context)
}
const rows: Record<string, { cpuMax: number[], wallMax: number[], cpuOver: number, cpuTotal: number[] }> = {}
try {
  for (let run = -1; run < runs; run++) {
    for (const [index, app] of apps.entries()) {
      for (const [label, url, selector] of [['empty', `${app.url}/`, '[data-testid="composer-input"]'], ['long', `${app.url}/?thread=${chat.thread.id}`, `[data-message-id="${chat.messages.at(-1)!.id}"]`]] as const) {
        const page = await contexts[index]!.newPage()
        const tasks = await record(page, url, selector)
        await page.close()
        if (run < 0) continue
        const key = `${builds[index]} ${label}`
        const row = rows[key] ??= { cpuMax: [], wallMax: [], cpuOver: 0, cpuTotal: [] }
        row.cpuMax.push(Math.round(Math.max(...tasks.map(t => t.cpu))))
        row.wallMax.push(Math.round(Math.max(...tasks.map(t => t.wall))))
        row.cpuOver += tasks.filter(t => t.cpu > 35).length
        row.cpuTotal.push(Math.round(tasks.reduce((sum, t) => sum + t.cpu, 0)))
      }
    }
  }
}
finally {
  await browser.close()
  for (const app of apps) await app.stop()
}
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]
console.log(`${runs} opens of each chat per build; load average ${loadavg().map(value => value.toFixed(2)).join(', ')} at the end`)
for (const [key, row] of Object.entries(rows)) {
  console.log(`${key}: longest task, CPU ms: median ${med(row.cpuMax)}, max ${Math.max(...row.cpuMax)} [${row.cpuMax.join(' ')}]; tasks over 35 ms of CPU: ${row.cpuOver}; main thread CPU per open: median ${med(row.cpuTotal)} ms; longest task, wall ms: median ${med(row.wallMax)} [${row.wallMax.join(' ')}]`)
}
