// What the specs that run several built-app instances on one redis-server share: each instance's environment and a
// reader of a background chat's event stream (`GET /api/chats/:id/events`) from outside any page.
import { expect } from '@playwright/test'
import { createParser } from 'eventsource-parser'
import type { LoopEvent } from '../../../shared/loop/loop-event'
import { FAKE_URL } from '../helpers'
import type { AppInstance } from './app-instance'

/** The environment of one instance on `redisUrl`, on the fake provider with a server key; `extra` is added last. */
export function redisInstanceEnv(redisUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NUXT_REDIS_URL: redisUrl,
    NUXT_OPENROUTER_API_KEY: 'sk-or-test-server-key',
    NUXT_OPENROUTER_BASE_URL: `${FAKE_URL}/api/v1`,
    // Instances share sessions only when they share this password.
    NUXT_SESSION_PASSWORD: 'redis-instances-test-session-password-0123456789',
    // Short enough for a quick takeover, long enough that an instance busy loading mathjs on a loaded machine keeps
    // its claim (a lapsed claim runs the job twice).
    NUXT_JOB_LOCK_DURATION_MS: '5000',
    NUXT_JOB_STALLED_INTERVAL_MS: '1000',
    ...extra,
  }
}

export interface ReceivedEvent { id: number, event: LoopEvent }

/**
 * Reads the job's event stream from `app` with the session `cookie` until the run's last event (`finish` or `fail`)
 * or the stream's end, calling `onEvent` for each event in order; returns every event read.
 */
export async function readJobStream(app: AppInstance, cookie: string, jobId: string, onEvent: (item: ReceivedEvent) => void | Promise<void> = () => {}): Promise<ReceivedEvent[]> {
  const response = await fetch(`${app.url}/api/chats/${jobId}/events`, { headers: { cookie, accept: 'text/event-stream' } })
  expect(response.status).toBe(200)
  const received: ReceivedEvent[] = []
  let pending: ReceivedEvent[] = []
  const parser = createParser({
    onEvent: ({ id, data }) => {
      if (id && data) pending.push({ id: Number(id), event: JSON.parse(data) as LoopEvent })
    },
  })
  const decoder = new TextDecoder()
  const reader = response.body!.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return received
    parser.feed(decoder.decode(value, { stream: true }))
    const batch = pending
    pending = []
    for (const item of batch) {
      received.push(item)
      await onEvent(item)
      if (item.event.type === 'finish' || item.event.type === 'fail') {
        await reader.cancel()
        return received
      }
    }
  }
}

/** Waits until the job's runner has appended its first event, reading the stream from `app` with its own session. */
export async function firstJobEvent(app: AppInstance, jobId: string): Promise<void> {
  const response = await app.fetchWithSession(`/api/chats/${jobId}/events`, { headers: { accept: 'text/event-stream' } })
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  while (!/^id: ?\d+$/m.test(text)) {
    const { done, value } = await reader.read()
    if (done) break
    text += decoder.decode(value, { stream: true })
  }
  await reader.cancel()
}
