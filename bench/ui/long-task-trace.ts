import type { Browser, Page } from '@playwright/test'

/** What one long task of the page's main thread spent its time on. */
export interface LongTaskBreakdown {
  durationMs: number
  /** When the task started, ms after the trace started. */
  atMs: number
  /** The task's longest trace events at any depth (FunctionCall, TimerFire, Layout, MinorGC...), ms. */
  events: Record<string, number>
  /** JavaScript functions with the most self time in the task (name @ file:line), ms, from the sampling profiler. */
  functions: Array<{ name: string, ms: number }>
}

const CATEGORIES = [
  'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'v8',
  'disabled-by-default-v8.cpu_profiler', 'blink.user_timing', 'toplevel',
]

interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  id?: string
  args?: { name?: string, data?: { cpuProfile?: { nodes?: ProfileNode[], samples?: number[] }, timeDeltas?: number[] } }
}
interface ProfileNode { id: number, parent?: number, callFrame: { functionName: string, url?: string, lineNumber?: number } }

/** Starts a Chromium trace of `page` (timeline events and the JavaScript sampling profiler). */
export async function startTrace(browser: Browser, page: Page): Promise<void> {
  await browser.startTracing(page, { categories: CATEGORIES })
}

/** Ends the trace started by `startTrace` and breaks down each main-thread task over `thresholdMs`. */
export async function stopTrace(browser: Browser, thresholdMs = 50): Promise<LongTaskBreakdown[]> {
  const buffer = await browser.stopTracing()
  const { traceEvents } = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] }
  const mainThread = traceEvents.find(event => event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
  if (!mainThread) return []
  const onMain = traceEvents.filter(event => event.pid === mainThread.pid && event.tid === mainThread.tid)
  const tasks = onMain.filter(event => event.name === 'RunTask' && event.ph === 'X' && (event.dur ?? 0) / 1000 > thresholdMs)
    .filter(task => !onMain.some(event => event.name === 'CpuProfiler::StartProfiling' && event.ts >= task.ts && event.ts < task.ts + task.dur!))
  const startedAt = onMain.reduce((earliest, event) => (event.ts > 0 && event.ts < earliest ? event.ts : earliest), Number.POSITIVE_INFINITY)
  const samples = profileSamples(traceEvents, mainThread.pid, mainThread.tid)
  return tasks.map((task) => {
    const end = task.ts + task.dur!
    const events: Record<string, number> = {}
    // The task's longest pieces at any depth (Layout, FunctionCall, ParseHTML, MinorGC...), scheduler wrappers left out.
    const children = onMain.filter(event => event.ph === 'X' && event !== task && event.ts >= task.ts && event.ts < end && !WRAPPERS.has(event.name))
    for (const event of children.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0)).slice(0, 6)) {
      events[event.name] = round(Math.max(events[event.name] ?? 0, (event.dur ?? 0) / 1000))
      // How many elements a style recalculation went over (a whole subtree invalidated, or only what changed).
      const elements = (event.args as { elementCount?: number } | undefined)?.elementCount
      if (elements !== undefined) events[`${event.name} elements`] = Math.max(events[`${event.name} elements`] ?? 0, elements)
    }
    const self = new Map<string, number>()
    for (const sample of samples) {
      if (sample.ts < task.ts || sample.ts >= end) continue
      self.set(sample.frame, (self.get(sample.frame) ?? 0) + sample.durationUs / 1000)
    }
    const functions = [...self].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([name, ms]) => ({ name, ms: round(ms) }))
    return { durationMs: round(task.dur! / 1000), atMs: Math.round((task.ts - startedAt) / 1000), events, functions }
  })
}

const WRAPPERS = new Set(['ThreadControllerImpl::RunTask', 'RunTask', 'BlinkScheduler_PerformMicrotaskCheckpoint', 'ThreadController active', 'SequenceManager RunTask'])
const round = (value: number) => Math.round(value * 10) / 10

/** The sampling profiler's samples of the page's main thread, each with its top frame and the time it stands for. */
function profileSamples(traceEvents: TraceEvent[], pid: number, tid: number) {
  const starts = new Map<string, number>()
  for (const event of traceEvents) if (event.name === 'Profile' && event.pid === pid && event.tid === tid && event.id) starts.set(event.id, event.ts)
  const nodes = new Map<number, ProfileNode>()
  const samples: Array<{ ts: number, frame: string, durationUs: number }> = []
  const clock = new Map<string, number>()
  for (const event of traceEvents) {
    if (event.name !== 'ProfileChunk' || event.pid !== pid || !event.id || !starts.has(event.id)) continue
    const data = event.args?.data
    for (const node of data?.cpuProfile?.nodes ?? []) nodes.set(node.id, node)
    let ts = clock.get(event.id) ?? starts.get(event.id) ?? event.ts
    const deltas = data?.timeDeltas ?? []
    ;(data?.cpuProfile?.samples ?? []).forEach((nodeId, index) => {
      ts += deltas[index] ?? 0
      const frame = nodes.get(nodeId)?.callFrame
      const name = frame ? `${frame.functionName || '(anonymous)'} @ ${(frame.url ?? '').split('/').pop() || '-'}:${(frame.lineNumber ?? 0) + 1}` : '?'
      samples.push({ ts, frame: name, durationUs: 0 })
    })
    clock.set(event.id, ts)
  }
  samples.sort((a, b) => a.ts - b.ts)
  for (let index = 0; index < samples.length - 1; index++) samples[index]!.durationUs = Math.min(samples[index + 1]!.ts - samples[index]!.ts, 2_000)
  return samples
}
