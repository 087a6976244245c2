// `node --import tsx bench/ui/open-cpu.ts <build>/.output [<other>/.output ...] [--runs N]`: opens the empty chat and
// the 2,000-message chat of each build in turn (one unmeasured round first) and reports each open's main-thread
// tasks by the thread's CPU time (a Chromium trace's `tdur`) beside their wall time. On a shared machine a task's wall
// time grows with the other processes' load (tasks of 20–30 ms of CPU took 40–540 ms at load 5–6); its CPU time grows
// far less (by a third at load 6–7, cores shared with other work), so this compares builds where `npm run bench:ui`'s
// long-task counts are mostly the machine's load. A tool, not a figure.
import { resolve } from 'node:path'
import { loadavg } from 'node:os'
import { chromium, type BrowserContext, type Page } from '@playwright/test'
import { importChat, longChat } from '../../tests/e2e/support/seed-chat'
import { startBenchApp } from './app-server'
import { mainThreadEvents, recordOpen } from './open-trace'

const argv = process.argv.slice(2)
const runsIndex = argv.indexOf('--runs')
const runs = runsIndex >= 0 ? Number(argv[runsIndex + 1]) : 5
const builds = argv.filter((arg, index) => !arg.startsWith('--') && index !== runsIndex + 1)
if (builds.length === 0) builds.push('.output')

/** Each main-thread task of opening `url`: its wall time and the thread's CPU time (ms). */
async function openTasks(page: Page, url: string, selector: string) {
  const { events } = await recordOpen(page, url, selector)
  return mainThreadEvents(events).filter(event => event.name === 'RunTask').map(task => ({ wall: (task.dur ?? 0) / 1000, cpu: (task.tdur ?? 0) / 1000 }))
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] })
const apps = await Promise.all(builds.map((build, index) => startBenchApp(resolve(build), {}, `open-cpu-${index}`)))
const chat = longChat('bench-long-chat', 2000)
const contexts: BrowserContext[] = []
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
        const tasks = await openTasks(page, url, selector)
        await page.close()
        if (run < 0) continue
        const key = `${builds[index]} ${label}`
        const row = rows[key] ??= { cpuMax: [], wallMax: [], cpuOver: 0, cpuTotal: [] }
        row.cpuMax.push(Math.round(Math.max(...tasks.map(task => task.cpu))))
        row.wallMax.push(Math.round(Math.max(...tasks.map(task => task.wall))))
        row.cpuOver += tasks.filter(task => task.cpu > 35).length
        row.cpuTotal.push(Math.round(tasks.reduce((sum, task) => sum + task.cpu, 0)))
      }
    }
  }
}
finally {
  await browser.close()
  for (const app of apps) await app.stop()
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
console.log(`${runs} opens of each chat per build; load average ${loadavg().map(value => value.toFixed(2)).join(', ')} at the end`)
for (const [key, row] of Object.entries(rows)) {
  console.log(`${key}: longest task, CPU ms: median ${median(row.cpuMax)}, max ${Math.max(...row.cpuMax)} [${row.cpuMax.join(' ')}]; tasks over 35 ms of CPU: ${row.cpuOver}; main thread CPU per open: median ${median(row.cpuTotal)} ms; longest task, wall ms: median ${median(row.wallMax)} [${row.wallMax.join(' ')}]`)
}
