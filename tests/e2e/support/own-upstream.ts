// A fake OpenRouter and a proxy build of the app pointed at it, one pair per Playwright worker: a spec that reads
// what the upstream was sent (`upstream.requests()`) sees only its own worker's requests, and a worker runs one test
// at a time, so those specs run beside the rest instead of one at a time on the one shared fake.
import { resolve } from 'node:path'
import { test as base } from '@playwright/test'
import { FAKE_URL } from '../helpers'
import { startApp } from './app-instance'
import { startFakeOpenRouter } from '../../unit/helpers/fake-openrouter-process'
import type { RecordedRequest } from '../../unit/helpers/fake-openrouter-process'

/** A chat request the fake upstream received (`GET /__requests`). */
export type FakeRequest = RecordedRequest

export interface OwnUpstream {
  /** The fake OpenRouter's origin (its API is under `/api/v1`). */
  url: string
  /** The chat requests received since the last `clear()`, leaving out the title requests (`titleRequests`). */
  requests: () => Promise<FakeRequest[]>
  /** The requests asking the model for a chat's title. */
  titleRequests: () => Promise<FakeRequest[]>
  clear: () => Promise<void>
}

/** A request of the app asking the model to name a chat after its first reply. */
function isTitleRequest(request: FakeRequest): boolean {
  const first = (request.body?.messages as Array<{ role?: string, content?: unknown }> | undefined)?.[0]
  return first?.role === 'system' && String(first.content ?? '').startsWith('Write a title for this conversation')
}

/**
 * `upstream`: this worker's fake OpenRouter. `proxyUrl`: this worker's app with a server key and OpenRouter pointed at
 * `upstream`, `fake/text` the default model, as playwright.config's proxy server (icons still come from the shared
 * fake's Iconify stand-in). Both start when a test of the worker first asks for them.
 */
export const test = base.extend<object, { upstream: OwnUpstream, proxyUrl: string }>({
  // Playwright reads what a fixture needs from its first parameter's pattern: this one needs nothing.
  // eslint-disable-next-line no-empty-pattern
  upstream: [async ({}, use) => {
    // The shared fake's pace (its default): a test that stops a reply midway has the time to.
    const fake = await startFakeOpenRouter({ chunkDelayMs: 5 })
    try {
      await use({
        url: fake.origin,
        requests: async () => (await fake.received()).filter(request => !isTitleRequest(request)),
        titleRequests: async () => (await fake.received()).filter(isTitleRequest),
        clear: fake.clear,
      })
    }
    finally {
      fake.stop()
    }
  }, { scope: 'worker' }],
  proxyUrl: [async ({ upstream }, use) => {
    const app = await startApp({
      NUXT_OPENROUTER_API_KEY: 'sk-or-test-server-key',
      NUXT_OPENROUTER_BASE_URL: `${upstream.url}/api/v1`,
      NUXT_PUBLIC_DEFAULT_MODEL: 'fake/text',
      NUXT_RATE_LIMIT_PER_MINUTE: '10000',
      NUXT_ICONIFY_API_URL: `${FAKE_URL}/iconify`,
      NUXT_ICON_CACHE_DIR: resolve(`.data/e2e-icons-${process.env.E2E_PORT ?? 3123}`),
    })
    try {
      await use(app.url)
    }
    finally {
      await app.stop()
    }
  }, { scope: 'worker', timeout: 90_000 }],
})

export { expect } from '@playwright/test'
