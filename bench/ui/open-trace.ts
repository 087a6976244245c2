import type { Page } from '@playwright/test'
import { installProbe, waitForVisible } from './page-probes'

/** One event of a Chromium trace (`dur` wall time, `tdur` the thread's CPU time, both µs). */
export interface TraceEvent { name: string, cat: string, ph: string, ts: number, dur?: number, tdur?: number, tid: number, pid: number, args?: { data?: Record<string, unknown>, name?: string } }
/** A node of V8's sampled CPU profile. */
export interface ProfileNode { id: number, callFrame: { functionName: string, url: string, lineNumber: number, columnNumber: number }, children?: number[] }
export interface Profile { nodes: ProfileNode[], startTime: number, endTime: number, samples: number[], timeDeltas: number[] }

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'v8', 'blink.user_timing', 'loading']
const NO_PROFILE: Profile = { nodes: [], startTime: 0, endTime: 0, samples: [], timeDeltas: [] }

/**
 * Opens `url` in `page` under a Chromium trace (and, with `sampling`, V8's sampling profiler) until `selector` is on
 * screen and one second more: the events of opening a chat.
 */
export async function recordOpen(page: Page, url: string, selector: string, { sampling = false } = {}): Promise<{ visibleMs: number, events: TraceEvent[], profile: Profile }> {
  const session = await page.context().newCDPSession(page)
  const events: TraceEvent[] = []
  session.on('Tracing.dataCollected', ({ value }) => { events.push(...(value as unknown as TraceEvent[])) })
  if (sampling) {
    await session.send('Profiler.enable')
    await session.send('Profiler.setSamplingInterval', { interval: 200 })
  }
  await session.send('Tracing.start', { categories: CATEGORIES.join(','), transferMode: 'ReportEvents' })
  if (sampling) await session.send('Profiler.start')
  await installProbe(page, selector)
  await page.goto(url, { waitUntil: 'commit' })
  const visibleMs = await waitForVisible(page)
  await page.waitForTimeout(1000)
  const { profile } = sampling ? await session.send('Profiler.stop') as { profile: Profile } : { profile: NO_PROFILE }
  const done = new Promise<void>(finish => session.once('Tracing.tracingComplete', () => finish()))
  await session.send('Tracing.end')
  await done
  return { visibleMs, events, profile }
}

/** The complete events of the renderer's main thread that ran the app's scripts. */
export function mainThreadEvents(events: TraceEvent[]): TraceEvent[] {
  const scriptPid = events.find(event => (event.name === 'EvaluateScript' || event.name === 'v8.compileModule') && String(event.args?.data?.url ?? '').includes('/_nuxt/'))?.pid
  const main = events.find(event => event.name === 'thread_name' && event.args?.name === 'CrRendererMain' && event.pid === scriptPid)
  if (!main) throw new Error('no renderer main thread in the trace')
  return events.filter(event => event.pid === main.pid && event.tid === main.tid && event.ph === 'X')
}
