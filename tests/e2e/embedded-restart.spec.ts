import { expect, test } from '@playwright/test'
import { FAKE_URL, lastAssistant, openApp, sendMessage, waitForIdle } from './helpers'
import { freePort, startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'

// One embedded instance (no Redis) restarts while it writes a reply on the server: the tab keeps the words it had,
// and ends the reply with the reason instead of waiting for ever or showing it twice.
let app: AppInstance | undefined

const env = {
  NUXT_OPENROUTER_API_KEY: 'sk-or-test-server-key',
  NUXT_OPENROUTER_BASE_URL: `${FAKE_URL}/api/v1`,
  NUXT_PUBLIC_DEFAULT_MODEL: 'fake/slow-tools',
  NUXT_SESSION_PASSWORD: 'embedded-restart-session-password-0123456789',
}

test.afterAll(async () => {
  await app?.stop()
})

test('a reply cut by a restart of the server keeps its words and says the server restarted', async ({ page }) => {
  test.setTimeout(60_000)
  const port = await freePort()
  app = await startApp(env, { port })
  await openApp(page, app.url)
  await sendMessage(page, 'What is 6*7? Then talk for a while.')
  await expect(page.locator('[data-testid="tool-card"][data-tool="calculate"]').first()).toHaveAttribute('data-status', 'done', { timeout: 15_000 })
  await expect(lastAssistant(page)).toContainText('word3', { timeout: 15_000 })

  // The process dies mid-reply and comes back on the same address; the page's stream reconnects by itself.
  process.kill(app.pid, 'SIGKILL')
  app = await startApp(env, { port })

  await waitForIdle(page)
  const reply = lastAssistant(page)
  await expect(reply).toHaveAttribute('data-status', 'error')
  await expect(reply).toContainText('The server restarted while this job was running.')
  await expect(reply).toContainText('The tool returned 42.')
  await expect(reply).toContainText('word3')
  await expect(reply).not.toContainText('The end.')
  // Each word it had, once.
  expect((await reply.innerText()).match(/word2\b/g)).toHaveLength(1)
  await expect(page.locator('[data-testid="tool-card"][data-tool="calculate"]').first()).toHaveAttribute('data-status', 'done')

  // A reload shows the same.
  await page.reload()
  await openApp(page, page.url())
  await expect(lastAssistant(page)).toHaveAttribute('data-status', 'error')
  await expect(lastAssistant(page)).toContainText('word3')
})

test('an instance asked to stop (SIGTERM, as a deploy does) ends the event streams it holds instead of waiting on them', async () => {
  // Ten minutes of grace for open connections: an instance waiting for its devices' event streams to end by
  // themselves would outlast this test.
  const instance = await startApp({ NUXT_SYNC: 'on', NITRO_SHUTDOWN_TIMEOUT: '600000' })
  let running = true
  try {
    const feed = await fetch(`${instance.url}/api/sync/events`, { headers: { cookie: instance.cookie } })
    expect(feed.status).toBe(200)
    const reader = feed.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    while (!text.includes('"ready":true')) text += decoder.decode((await reader.read()).value, { stream: true })

    const stopped = instance.stop()
    // The server ends the stream (the device reconnects and pulls), then the process exits.
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true })
    await stopped
    running = false
    expect(instance.output()).not.toMatch(/Graceful shutdown timeout/)
  }
  finally {
    if (running) process.kill(instance.pid, 'SIGKILL')
  }
})
