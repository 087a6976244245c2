// `node --import tsx bench/ui/profile-open.ts [--build .output]`: what each long task (> 50 ms) is while the empty
// chat and the 2,000-message chat open (the two figures of `npm run bench:ui`'s "open" table). Records a Chromium
// trace and a sampled CPU profile of each open and prints, per long task, where its time went (script, style,
// layout, GC...) and the functions that ran longest in it. A tool for finding the cause, not a figure.
// `--runs N` repeats both opens; `PROFILE_INCLUSIVE=40` also lists the 40 functions with the most inclusive time
// (a build with `vite.build.minify: false` names them).
import { resolve } from 'node:path'
import { chromium } from '@playwright/test'
import { importChat, longChat } from '../../tests/e2e/support/seed-chat'
import { startBenchApp } from './app-server'
import { mainThreadEvents, recordOpen, type Profile, type TraceEvent } from './open-trace'

const argv = process.argv.slice(2)
const buildIndex = argv.indexOf('--build')
const output = resolve(buildIndex >= 0 ? argv[buildIndex + 1]! : '.output')
const runsIndex = argv.indexOf('--runs')
const runs = runsIndex >= 0 ? Number(argv[runsIndex + 1]) : 1
// `--threshold 20`: list every task over 20 ms (the long-task line is 50 ms); `--no-samples`: the trace alone, without
// the sampling profiler, whose overhead makes every task longer (durations closer to a real open, no function names).
const thresholdIndex = argv.indexOf('--threshold')
const thresholdMs = thresholdIndex >= 0 ? Number(argv[thresholdIndex + 1]) : 50
const sampling = !argv.includes('--no-samples')

const KINDS: Array<[RegExp, string]> = [
  [/^(EvaluateScript|v8\.evaluateModule|v8\.compileModule|v8\.compile|CompileScript|v8\.parseOnBackground)$/, 'script load'],
  [/^(FunctionCall|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|V8\.Execute|v8\.callFunction|v8\.run)$/, 'script'],
  [/^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet)$/, 'style'],
  [/^(Layout|UpdateLayerTree|IntersectionObserverController::computeIntersections|ResizeObserverController::deliverObservations)$/, 'layout'],
  [/^(Paint|PaintImage|Rasterize|CompositeLayers|PrePaint|Commit)$/, 'paint'],
  [/^(MajorGC|MinorGC|V8\.GCScavenger|V8\.GCCompactor|BlinkGC\..*|V8\.GC_.*)$/, 'gc'],
  [/^(ParseHTML)$/, 'html'],
]

function kindOf(name: string): string | undefined {
  return KINDS.find(([pattern]) => pattern.test(name))?.[1]
}

function shortUrl(url: string): string {
  return url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/_nuxt\//, '') || '(inline)'
}

function analyse(label: string, visibleMs: number, events: TraceEvent[], profile: Profile) {
  // the page's renderer: the main thread that ran the app's scripts
  const onMain = mainThreadEvents(events)
  const navigation = events.find(event => event.name === 'navigationStart' && event.pid === onMain[0]!.pid)?.ts ?? onMain[0]!.ts
  const tasks = onMain.filter(event => event.name === 'RunTask' && (event.dur ?? 0) > thresholdMs * 1000)
  // samples → absolute times (µs, the trace's clock)
  const nodes = new Map(profile.nodes.map(node => [node.id, node]))
  const parents = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id)
  const times: number[] = []
  let time = profile.startTime
  for (const delta of profile.timeDeltas) times.push(time += delta)
  console.log(`\n## ${label}: newest visible at ${Math.round(visibleMs)} ms, ${tasks.length} task(s) over ${thresholdMs} ms`)
  for (const task of tasks) {
    const end = task.ts + task.dur!
    const inside = onMain.filter(event => event.ts >= task.ts && event.ts + (event.dur ?? 0) <= end && event !== task)
    const byKind = new Map<string, number>()
    const scripts = new Map<string, number>()
    for (const event of inside) {
      const kind = kindOf(event.name)
      if (!kind) continue
      // count only outermost events of a kind
      const parent = inside.find(other => other !== event && kindOf(other.name) === kind && other.ts <= event.ts && other.ts + (other.dur ?? 0) >= event.ts + (event.dur ?? 0))
      if (parent) continue
      byKind.set(kind, (byKind.get(kind) ?? 0) + (event.dur ?? 0))
      const url = (event.args?.data?.url ?? event.args?.data?.fileName) as string | undefined
      if (url && (kind === 'script load' || kind === 'script')) scripts.set(`${event.name} ${shortUrl(url)}`, (scripts.get(`${event.name} ${shortUrl(url)}`) ?? 0) + (event.dur ?? 0))
    }
    const self = new Map<string, number>()
    for (let index = 0; index < profile.samples.length; index++) {
      const at = times[index]!
      if (at < task.ts || at > end) continue
      const frame = nodes.get(profile.samples[index]!)!.callFrame
      const key = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`
      self.set(key, (self.get(key) ?? 0) + (times[index + 1] ?? at) - at)
    }
    // inclusive time of each function (counted once per sample however deep it recurses), with PROFILE_INCLUSIVE=1
    const inclusive = new Map<string, number>()
    if (process.env.PROFILE_INCLUSIVE) {
      for (let index = 0; index < profile.samples.length; index++) {
        const at = times[index]!
        if (at < task.ts || at > end) continue
        const seen = new Set<string>()
        for (let id: number | undefined = profile.samples[index]; id !== undefined; id = parents.get(id)) {
          const frame = nodes.get(id)!.callFrame
          const key = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`
          if (seen.has(key)) continue
          seen.add(key)
          inclusive.set(key, (inclusive.get(key) ?? 0) + (times[index + 1] ?? at) - at)
        }
      }
    }
    const ms = (us: number) => `${(us / 1000).toFixed(1)}`
    console.log(`- ${ms(task.dur!)} ms task at ${ms(task.ts - navigation)} ms: ${[...byKind].sort((a, b) => b[1] - a[1]).map(([kind, us]) => `${kind} ${ms(us)}`).join(', ')}`)
    for (const [what, us] of [...scripts].sort((a, b) => b[1] - a[1]).slice(0, 5)) console.log(`    ${ms(us).padStart(6)} ms  ${what}`)
    // the longest pieces of any kind when no known kind explains the task (navigation, loading...)
    if ([...byKind.values()].reduce((sum, us) => sum + us, 0) < task.dur! / 2) {
      for (const event of [...inside].sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0)).slice(0, 4)) console.log(`    ${ms(event.dur ?? 0).padStart(6)} ms  ${event.name}`)
    }
    // what started the task's pieces: a timer, a frame, an event, a module evaluated, a function called
    for (const event of inside.filter(event => /^(TimerFire|FireAnimationFrame|FireIdleCallback|EventDispatch|v8\.evaluateModule|v8\.compileModule|FunctionCall|ParseAuthorStyleSheet|UpdateLayoutTree|Layout)$/.test(event.name) && (event.dur ?? 0) >= 3000)
      .filter(event => !inside.some(other => other !== event && other.ts <= event.ts && other.ts + (other.dur ?? 0) >= event.ts + (event.dur ?? 0) && /^(TimerFire|FireAnimationFrame|FireIdleCallback|EventDispatch|FunctionCall)$/.test(other.name)))
      .slice(0, 8)) {
      const data = event.args?.data ?? {}
      const detail = [data.type, data.functionName, data.fileName ?? data.url ?? data.styleSheetUrl, data.timerId !== undefined ? `timer ${String(data.timerId)}` : undefined, data.elementCount !== undefined ? `${String(data.elementCount)} elements` : undefined].filter(Boolean).map(value => shortUrl(String(value))).join(' ')
      console.log(`    ${ms(event.dur ?? 0).padStart(6)} ms  ${event.name} ${detail}`)
    }
    for (const [what, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`    ${ms(us).padStart(6)} ms self  ${what}`)
    for (const [what, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_INCLUSIVE) || 0)) console.log(`    ${ms(us).padStart(6)} ms total ${what}`)
  }
}

const app = await startBenchApp(output, {}, 'profile-open')
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
})
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const setup = await context.newPage()
  await setup.goto(app.url, { waitUntil: 'commit' })
  await setup.waitForFunction(() => (window as unknown as { __plugboardReady?: boolean }).__plugboardReady === true, undefined, { timeout: 60_000 })
  const chat = longChat('bench-long-chat', 2000)
  await importChat(setup, chat)
  await setup.close()
  for (let run = 0; run < runs; run++) {
    for (const [label, url, selector] of [
      ['empty chat', `${app.url}/`, '[data-testid="composer-input"]'],
      ['2,000 messages', `${app.url}/?thread=${chat.thread.id}`, `[data-message-id="${chat.messages.at(-1)!.id}"]`],
    ] as const) {
      const page = await context.newPage()
      const { visibleMs, events, profile } = await recordOpen(page, url, selector, { sampling })
      analyse(label, visibleMs, events, profile)
      await page.close()
    }
  }
}
finally {
  await browser.close()
  await app.stop()
}
