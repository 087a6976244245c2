// One soak chat as a client sees it: a session from the app's page, POST /api/chats, then GET /api/chats/:id/events
// read to its last event, reconnecting with Last-Event-ID (to whichever instance is up) whenever a stream breaks,
// and noting every id that repeats or skips.
import { createParser } from 'eventsource-parser'
import type { LoopEvent } from '../../shared/loop/loop-event'
import type { SoakTool } from './soak-upstream'

export interface ChatTrace {
  chat: number
  plan: SoakTool[]
  jobId?: string
  /** 'finish' / 'fail': the last event read; 'never-ended': none within the bound; 'not-started': POST never took. */
  outcome: 'finish' | 'fail' | 'never-ended' | 'not-started'
  /** The finish reason, or the fail's message. */
  reason?: string
  startAttempts: number
  connections: number
  /** Streams that delivered no event for the idle bound (keep-alives aside) and were dropped by the client. */
  silentStreams: number
  /** What the soak found out about each silent stream (`FollowOptions.onSilent`). */
  silences: unknown[]
  events: number
  lastId: number
  repeatedIds: number[]
  /** `<expected>-><got>` for every jump. */
  gaps: string[]
  /** tool-call-running events per call id. */
  runs: Record<string, number>
  /** tool-call-done / tool-call-error events per call id. */
  ends: Record<string, number>
  /** Each tool-call-error: its status and message (an `interrupted` call cut by a kill, say). */
  toolErrors: string[]
  durationMs: number
  /** The longest wait between two events the client read (or from its first request to the first event), ms. */
  longestWaitMs: number
  /** For a chat that never ended: what GET /api/chats/:id said of it then (status, error), as evidence. */
  record?: unknown
}

export interface FollowOptions {
  /** The instances' base URLs that are up now (the client tries one of them). */
  upUrls: () => string[]
  random: () => number
  /** Give up after this many ms from the start. */
  boundMs: number
  /** Drop a stream with no event for this long (no soak chat waits that long between two). @default 20000 */
  idleMs?: number
  /** Told when a stream from `url` stayed silent: what it returns is kept in the trace as evidence. */
  onSilent?: (jobId: string, url: string, lastIdRead: number) => Promise<unknown>
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

function pick(urls: string[], random: () => number): string | undefined {
  return urls.length ? urls[Math.floor(random() * urls.length)] : undefined
}

async function session(options: FollowOptions, deadline: number): Promise<string | undefined> {
  while (Date.now() < deadline) {
    const url = pick(options.upUrls(), options.random)
    if (url) {
      try {
        const page = await fetch(`${url}/`, { signal: AbortSignal.timeout(10_000) })
        await page.text()
        const cookie = page.headers.getSetCookie().map(item => item.split(';')[0]).join('; ')
        if (page.ok && cookie) return cookie
      }
      catch {}
    }
    await sleep(300)
  }
}

/** Starts chat `chat` with `plan` and reads it to its end (or the bound). */
export async function followChat(chat: number, plan: SoakTool[], options: FollowOptions): Promise<ChatTrace> {
  const started = Date.now()
  const deadline = started + options.boundMs
  const trace: ChatTrace = { chat, plan, outcome: 'not-started', startAttempts: 0, connections: 0, silentStreams: 0, silences: [], longestWaitMs: 0, events: 0, lastId: 0, repeatedIds: [], gaps: [], runs: {}, ends: {}, toolErrors: [], durationMs: 0 }
  const done = () => ({ ...trace, durationMs: Date.now() - started })
  const cookie = await session(options, deadline)
  if (!cookie) return done()

  const body = JSON.stringify({
    threadId: `soak-${chat}`,
    model: 'soak/model',
    messages: [{ role: 'user', content: `soak chat ${chat} plan ${plan.join(',')}` }],
    serverTools: ['calculate', 'fetch_web_page'],
    toolPolicies: { calculate: 'auto', fetch_web_page: 'auto' },
  })
  while (!trace.jobId && Date.now() < deadline) {
    const url = pick(options.upUrls(), options.random)
    if (url) {
      trace.startAttempts++
      try {
        const response = await fetch(`${url}/api/chats`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(15_000) })
        if (response.status === 201) trace.jobId = ((await response.json()) as { id: string }).id
        else await response.text()
      }
      catch {}
    }
    if (!trace.jobId) await sleep(500)
  }
  if (!trace.jobId) return done()
  trace.outcome = 'never-ended'

  const idleMs = options.idleMs ?? 20_000
  let lastEventAt = Date.now()
  while (Date.now() < deadline) {
    const url = pick(options.upUrls(), options.random)
    if (!url) {
      await sleep(200)
      continue
    }
    const abort = new AbortController()
    let idle: NodeJS.Timeout | undefined
    let silent = false
    const resetIdle = () => {
      clearTimeout(idle)
      idle = setTimeout(() => {
        silent = true
        abort.abort()
      }, Math.min(idleMs, Math.max(1, deadline - Date.now())))
    }
    try {
      trace.connections++
      resetIdle()
      const response = await fetch(`${url}/api/chats/${trace.jobId}/events`, {
        headers: { cookie, 'accept': 'text/event-stream', ...(trace.lastId > 0 && { 'last-event-id': String(trace.lastId) }) },
        signal: abort.signal,
      })
      if (response.status !== 200) {
        await response.text()
        throw new Error(`status ${response.status}`)
      }
      let ended = false
      const parser = createParser({
        onEvent: ({ id, data }) => {
          if (ended || !id || !data) return
          const eventId = Number(id)
          const event = JSON.parse(data) as LoopEvent
          trace.events++
          resetIdle()
          trace.longestWaitMs = Math.max(trace.longestWaitMs, Date.now() - lastEventAt)
          lastEventAt = Date.now()
          if (eventId <= trace.lastId) {
            trace.repeatedIds.push(eventId)
            return
          }
          if (eventId !== trace.lastId + 1) trace.gaps.push(`${trace.lastId + 1}->${eventId}`)
          trace.lastId = eventId
          if (event.type === 'tool-call-running') trace.runs[event.call.id] = (trace.runs[event.call.id] ?? 0) + 1
          if (event.type === 'tool-call-done' || event.type === 'tool-call-error') trace.ends[event.result.callId] = (trace.ends[event.result.callId] ?? 0) + 1
          if (event.type === 'tool-call-error') trace.toolErrors.push(`${event.result.name} ${event.result.status}: ${event.result.error?.message ?? event.result.content}`.slice(0, 120))
          if (event.type === 'finish') Object.assign(trace, { outcome: 'finish', reason: event.finishReason })
          if (event.type === 'fail') Object.assign(trace, { outcome: 'fail', reason: event.error?.message || '(no message)' })
          if (event.type === 'finish' || event.type === 'fail') ended = true
        },
      })
      const decoder = new TextDecoder()
      for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(bytes, { stream: true }))
        if (ended) break
      }
      if (ended) {
        clearTimeout(idle)
        abort.abort()
        return done()
      }
    }
    catch {}
    clearTimeout(idle)
    if (silent) {
      trace.silentStreams++
      if (options.onSilent) trace.silences.push(await options.onSilent(trace.jobId, url, trace.lastId).catch((error: unknown) => String(error)))
    }
    await sleep(200 + Math.floor(options.random() * 300))
  }
  const url = pick(options.upUrls(), options.random)
  if (url) {
    trace.record = await fetch(`${url}/api/chats/${trace.jobId}`, { headers: { cookie }, signal: AbortSignal.timeout(5000) })
      .then(async response => response.ok ? await response.json() as unknown : `status ${response.status}`, () => 'unreachable')
  }
  return done()
}
