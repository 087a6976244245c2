import { resolve } from 'node:path'
import { build } from 'esbuild'
import type { Browser, Page } from '@playwright/test'
import { installProbe, readProbe, resetLongTasks } from './page-probes'
import { toDeltas } from './long-reply'
import { startTrace, stopTrace, type LongTaskBreakdown } from './long-task-trace'

export interface StreamResult {
  durationMs: number
  longTasks: number
  longestTaskMs: number
  /** The rendered text equals the text of the whole reply rendered at once (whitespace folded). */
  identical: boolean | null
  /** With `trace`: what each long task of the app's stream was (Chromium trace). */
  longTaskBreakdown?: LongTaskBreakdown[]
}

const fold = (text: string) => text.replace(/\s+/g, ' ').trim()

/** The app's own `renderMarkdown` bundled for the page, as `window.__naiveMarkdown.renderMarkdown`. */
async function bundleRenderMarkdown(): Promise<string> {
  const result = await build({
    stdin: { contents: `export { renderMarkdown } from ${JSON.stringify(resolve('app/utils/chat/markdown/markdown.ts'))}`, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true, write: false, format: 'iife', globalName: '__naiveMarkdown', platform: 'browser', minify: true,
  })
  return result.outputFiles[0]!.text
}

async function openReady(page: Page, url: string) {
  await page.goto(url, { waitUntil: 'commit' })
  await page.waitForFunction(() => (window as unknown as { __plugboardReady?: boolean }).__plugboardReady === true, undefined, { timeout: 60_000 })
}

/** The whole reply rendered at once in the page, as text. */
async function wholeText(page: Page, reply: string): Promise<string> {
  return page.evaluate((source) => {
    const element = document.createElement('div')
    element.innerHTML = (window as unknown as { __naiveMarkdown: { renderMarkdown: (text: string) => string } }).__naiveMarkdown.renderMarkdown(source)
    return element.textContent ?? ''
  }, reply)
}

/**
 * Sends one message to the app (in the browser, through the app's proxy to the loopback model, which answers with
 * `reply` at loopback speed) and measures long tasks from Enter until the reply is complete. Then, in a page of the
 * same app, the naive way: the whole reply re-rendered (markdown-it + DOMPurify + innerHTML) once per frame over
 * as many frames as the app took.
 */
export interface MeasureStreamingOptions {
  /** Record a Chromium trace and say what each long task was. */
  trace?: boolean
  /**
   * The chat runs on the server (the server's key): the tab records the job's LoopEvents from its SSE stream
   * instead of running the loop itself. No naive baseline is measured then (it would be the same as the tab's).
   */
  runOnServer?: boolean
  /** Measure the naive baseline too (a tab's chat only). @default true */
  naive?: boolean
}

export async function measureStreaming(browser: Browser, appUrl: string, reply: string, options: MeasureStreamingOptions = {}): Promise<{ app: StreamResult, naive?: StreamResult }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true })
  const runOnServer = String(Boolean(options.runOnServer))
  await context.addInitScript(`localStorage.setItem('plugboard:run-on-server:v1', ${JSON.stringify(runOnServer)})`)
  const page = await context.newPage()
  await installProbe(page, null)
  await openReady(page, appUrl)
  const input = page.getByTestId('composer-input')
  await input.fill('Write the long markdown reply.')
  if (options.trace) {
    await startTrace(browser, page)
    // Starting the profiler is itself a long task: let it pass before the measured part.
    await page.waitForTimeout(1_000)
  }
  await resetLongTasks(page)
  const started = Date.now()
  await input.press('Enter')
  const assistant = page.locator('[data-testid="message"][data-role="assistant"]').last()
  await assistant.waitFor({ timeout: 60_000 })
  await page.waitForFunction(() => {
    const messages = document.querySelectorAll('[data-testid="message"][data-role="assistant"]')
    const last = messages[messages.length - 1]
    return last && /complete|error|stopped/.test(last.getAttribute('data-status') ?? '') && document.querySelector('main')?.getAttribute('data-streaming') === 'false' && !document.querySelector('[data-rendering]')
  }, undefined, { timeout: 300_000, polling: 100 })
  const durationMs = Date.now() - started
  // The reply's last write and highlighting come after the status flips: let them land in the same measurement.
  await page.waitForTimeout(1_500)
  const appProbe = await readProbe(page)
  const longTaskBreakdown = options.trace ? await stopTrace(browser) : undefined
  const appText = await assistant.locator('[data-slot="content"]').textContent()
  await page.addScriptTag({ content: await bundleRenderMarkdown() })
  const expected = await wholeText(page, reply)
  const summary = (probe: typeof appProbe, duration: number, text: string | null): StreamResult => ({
    durationMs: duration,
    longTasks: probe.longTasks.length,
    longestTaskMs: Math.max(0, ...probe.longTasks),
    identical: text === null ? null : fold(text) === fold(expected),
  })
  const app = { ...summary(appProbe, durationMs, appText), longTaskBreakdown }
  if (options.runOnServer || options.naive === false) {
    await context.close()
    return { app }
  }

  // The naive baseline, in a fresh page of the same app.
  const naivePage = await context.newPage()
  await installProbe(naivePage, null)
  await openReady(naivePage, appUrl)
  await naivePage.addScriptTag({ content: await bundleRenderMarkdown() })
  const frames = Math.max(1, Math.round(durationMs / 16.7))
  const deltas = toDeltas(reply)
  const perFrame = Math.max(1, Math.ceil(deltas.length / frames))
  await resetLongTasks(naivePage)
  const naiveStarted = Date.now()
  const naiveText = await naivePage.evaluate(async ({ deltas, perFrame }) => {
    const render = (window as unknown as { __naiveMarkdown: { renderMarkdown: (text: string) => string } }).__naiveMarkdown.renderMarkdown
    const host = document.createElement('div')
    host.className = 'chat-markdown mx-auto max-w-3xl'
    document.querySelector('main')!.prepend(host)
    let text = ''
    for (let index = 0; index < deltas.length; index += perFrame) {
      text += deltas.slice(index, index + perFrame).join('')
      host.innerHTML = render(text)
      await new Promise(requestAnimationFrame)
    }
    return host.textContent ?? ''
  }, { deltas, perFrame })
  const naiveDuration = Date.now() - naiveStarted
  await naivePage.waitForTimeout(200)
  const naiveProbe = await readProbe(naivePage)
  await context.close()
  return { app, naive: summary(naiveProbe, naiveDuration, naiveText) }
}
