import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test'
import { importChat, type SeededChat } from './support/seed-chat'
import { describeStoredMessages, storedUserMessages } from './support/stored-rows'

export const FAKE_URL = `http://127.0.0.1:${process.env.FAKE_OPENROUTER_PORT ?? 3124}`
export const PROXY_APP_URL = `http://127.0.0.1:${process.env.E2E_PROXY_PORT ?? 3125}`

/**
 * A browser context of the test's own, like the one Playwright gives each test: no service worker unless the options
 * allow one. `browser.newContext` starts from Playwright's defaults, not the project's `use`, so the app's worker
 * installed there and precached the build (196 requests within 3 s of the first load): over a load and 5 s, 4.6 CPU-s
 * against 1.5 blocked. The tests close most such contexts sooner; the 38 tests that open them cost the same either
 * way (243 and 245 CPU-s, four runs). What counts is that every test's page runs as the fixture's does.
 */
export function newAppContext(browser: Browser, options: BrowserContextOptions = {}) {
  return browser.newContext({ serviceWorkers: 'block', ...options })
}

/** Opens the app and waits until it is hydrated and the tool plugins are loaded. */
export async function openApp(page: Page, url = '/') {
  await page.goto(url, { waitUntil: 'commit' })
  await waitForReady(page)
}

/**
 * Waits until the app is hydrated and its tool plugins are loaded. Polled from outside the page: the app may
 * reload once at start-up (to allow a newly chosen endpoint in its CSP), which would break an in-page wait.
 */
export async function waitForReady(page: Page) {
  await expect.poll(
    () => page.evaluate(() => {
      // a page that is reloading itself (to allow a new endpoint: connect-permission) is not the page to use
      const state = window as unknown as { __plugboardReady?: boolean, __plugboardReloading?: boolean }
      return state.__plugboardReady === true && state.__plugboardReloading !== true
    }).catch(() => false),
    { timeout: 20_000 },
  ).toBe(true)
}

/**
 * Types into the composer, presses Enter, and waits until the message is stored. Not until it is on screen: the
 * list is virtual, and a reply that arrives at once can scroll the question out of the page before a check sees it.
 */
export async function sendMessage(page: Page, text: string) {
  const before = await storedUserMessages(page, text)
  const input = page.getByTestId('composer-input')
  await input.fill(text)
  await input.press('Enter')
  // a read that meets the page mid-reload counts as "not yet"; if the wait fails, the last failed read says why
  let lastError: unknown
  try {
    await expect.poll(() => storedUserMessages(page, text).then((count) => {
      lastError = undefined
      return count
    }, (error: unknown) => {
      lastError = error
      return before
    }), { timeout: 10_000 }).toBeGreaterThan(before)
  }
  catch (error) {
    const store = lastError === undefined
      ? await describeStoredMessages(page).catch((readError: unknown) => `could not be read: ${String(readError)}`)
      : `the last read failed: ${String(lastError)}`
    throw new Error(`${(error as Error).message}\n"${text}" was not found among the stored messages; the store: ${store}`, { cause: error })
  }
}

/**
 * Lets the shared fake OpenRouter's reply held mid-stream (fake/slow-tools asked to "talk until I say so") stream on to
 * its end: only the one asked `question`, since tests in other workers may hold theirs.
 */
export async function releaseHeldReply(question: string) {
  const response = await fetch(`${FAKE_URL}/__release`, { method: 'POST', body: JSON.stringify({ asked: question }) })
  expect(((await response.json()) as { released: number }).released).toBe(1)
}

/** The last assistant message element. */
export function lastAssistant(page: Page) {
  return page.locator('[data-testid="message"][data-role="assistant"]').last()
}

/**
 * Waits until the reply (and every tool run) is over: the last message is a settled assistant reply, the page says
 * nothing is streaming (a step's reply is settled while the loop still runs tools and the next step), no Stop button,
 * and no reply still being shown over a few frames (one that arrived in a burst). All read at once on each poll:
 * read one after another, a reply that started between two reads (Retry, Continue) passed the first on the old reply
 * and failed the last on the new one.
 */
export async function waitForIdle(page: Page, { timeout = 20_000 }: { timeout?: number } = {}) {
  // a read that meets the page mid-reload counts as "not yet"
  await expect.poll(() => page.evaluate(() => {
    const messages = document.querySelectorAll('[data-testid="message"]')
    const last = messages[messages.length - 1]
    return {
      lastRole: last?.getAttribute('data-role') ?? 'none',
      lastStatus: last?.getAttribute('data-status') ?? 'none',
      streaming: document.querySelector('main')?.getAttribute('data-streaming') ?? 'none',
      stopButton: document.querySelector('[data-testid="stop-button"]') !== null,
      rendering: document.querySelector('[data-rendering]') !== null,
    }
  }).then(state => ({ ...state, lastStatus: /^(complete|stopped|error|interrupted)$/.test(state.lastStatus) ? 'settled' : state.lastStatus }), () => 'reloading'), { timeout })
    .toEqual({ lastRole: 'assistant', lastStatus: 'settled', streaming: 'false', stopButton: false, rendering: false })
}

/** The provider settings the settings panel stores (`plugboard:provider:v1`). */
export interface StoredProvider {
  providerId: 'openrouter' | 'openai-compatible'
  openrouter: { keySource: 'server' | 'user', apiKey: string, model: string }
  openaiCompatible: { baseUrl: string, apiKey: string, model: string, toolCallMode: 'native' | 'auto' | 'text' }
}

const UNUSED_COMPATIBLE: StoredProvider['openaiCompatible'] = { baseUrl: 'http://localhost:11434/v1', apiKey: '', model: '', toolCallMode: 'auto' }

/** OpenRouter with `model`, on the server's key, or on the user's own key when `userKey` is given. */
export function openRouterProvider(model: string, userKey?: string): StoredProvider {
  return {
    providerId: 'openrouter',
    openrouter: userKey === undefined ? { keySource: 'server', apiKey: '', model } : { keySource: 'user', apiKey: userKey, model },
    openaiCompatible: UNUSED_COMPATIBLE,
  }
}

/** An OpenAI-compatible endpoint. */
export function compatibleProvider(settings: { baseUrl: string, model: string, apiKey?: string, toolCallMode?: 'native' | 'auto' | 'text' }): StoredProvider {
  return {
    providerId: 'openai-compatible',
    openrouter: { keySource: 'user', apiKey: '', model: 'openai/gpt-4o-mini' },
    openaiCompatible: { apiKey: '', toolCallMode: 'auto', ...settings },
  }
}

/** What a test sets up as the user would in the settings panel and the tool popover. */
export interface StoredSettings {
  provider?: StoredProvider
  /** The "run chats on the server" switch. */
  runOnServer?: boolean
  /** Tools switched on (true) or off (false) in the popover. */
  toolStates?: Record<string, boolean>
  /** Per-tool approval policy (`'auto'` runs without asking). */
  toolPolicies?: Record<string, string>
}

/** Writes `settings` into the page's localStorage where the app keeps them; takes effect on the next load. */
export async function storeSettings(page: Page, settings: StoredSettings) {
  await page.evaluate((settings) => {
    if (settings.provider) localStorage.setItem('plugboard:provider:v1', JSON.stringify({ version: 1, ...settings.provider }))
    if (settings.runOnServer !== undefined) localStorage.setItem('plugboard:run-on-server:v1', String(settings.runOnServer))
    if (settings.toolStates) localStorage.setItem('plugboard:tool-states:v1', JSON.stringify({ version: 1, states: settings.toolStates }))
    if (settings.toolPolicies) localStorage.setItem('plugboard:tool-policies:v1', JSON.stringify({ version: 1, policies: settings.toolPolicies }))
  }, settings)
}

/** What the page keeps in localStorage under keys with `about` in them: a test sees a debounced save change it. */
export function savedSettings(page: Page, about: string): Promise<Record<string, string | null>> {
  return page.evaluate(about => Object.fromEntries(Object.keys(localStorage).filter(key => key.includes(about)).sort()
    .map(key => [key, localStorage.getItem(key)])), about)
}

/**
 * Stores `settings` on the app's origin, then opens the app at `url` and waits until it is ready with them. The
 * settings are written from a small JSON answer of the same origin (`/api/health`), so the app loads once, not twice.
 */
export async function openAppWith(page: Page, settings: StoredSettings, url = '/') {
  const origin = /^https?:/.test(url) ? new URL(url).origin : ''
  await page.goto(`${origin}/api/health`)
  await storeSettings(page, settings)
  await openApp(page, url)
}

/** Imports a chat through IndexedDB (the store the app's Dexie code created) and opens it at its newest message. */
export async function openSeededChat(page: Page, chat: SeededChat, appUrl = '') {
  await openApp(page, `${appUrl}/`)
  await importChat(page, chat)
  await openApp(page, `${appUrl}/?thread=${chat.thread.id}`)
  await expect(page.locator(`[data-message-id="${chat.messages.at(-1)!.id}"]`)).toBeVisible({ timeout: 20_000 })
}

/**
 * Collects the Content-Security-Policy violations the page reports, from before its first script runs: each
 * `securitypolicyviolation` event is logged to the console and every such console line is kept.
 */
export async function watchCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
  })
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI} ${event.sample}`)
    })
  })
  return violations
}
