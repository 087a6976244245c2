import { expect, test } from '@playwright/test'
import { lastAssistant, openApp, sendMessage, waitForIdle, watchCspViolations } from './helpers'
import { importChat, longChat } from './support/seed-chat'

// A long reply that arrives at once is shown whole (over a few frames), its code is highlighted by a worker under
// the app's CSP, and search_chat_history finds old and new messages over a 10,000-message history.

test.setTimeout(120_000)

/** A markdown reply of `sections` sections (heading, paragraph, list, TypeScript code), as the demo model's SSE body. */
function burstReply(sections: number): { text: string, body: string } {
  const text = Array.from({ length: sections }, (_, index) => [
    `## Section ${index + 1}`,
    `Paragraph ${index + 1} with **bold** text and \`inline code\`.`,
    `- first point\n- second point`,
    `\`\`\`ts\nexport const section${index + 1} = ${index + 1} * 2\n\`\`\``,
  ].join('\n\n')).join('\n\n')
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'burst', object: 'chat.completion.chunk', created: 0, model: 'plugboard/demo', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  let body = chunk({ role: 'assistant', content: '' })
  for (let index = 0; index < text.length; index += 4) body += chunk({ content: text.slice(index, index + 4) })
  body += `${chunk({}, 'stop')}data: [DONE]\n\n`
  return { text, body }
}

test('a long reply that arrives all at once is shown whole, its code highlighted off the page\'s thread', async ({ page }) => {
  const violations = await watchCspViolations(page)
  const workers: string[] = []
  page.on('worker', worker => workers.push(worker.url()))
  const sections = 120
  const { body } = burstReply(sections)
  // The whole reply in one response body: the page gets it at loopback speed, far faster than it renders.
  await page.route('**/api/demo/v1/chat/completions', route => route.fulfill({ status: 200, contentType: 'text/event-stream', body }))
  await openApp(page)
  await sendMessage(page, 'Write the long reply')
  await waitForIdle(page)

  const reply = lastAssistant(page)
  await expect(reply.locator('h2')).toHaveCount(sections)
  await expect(reply.locator('pre > code')).toHaveCount(sections)
  await expect(reply.locator('h2').last()).toHaveText(`Section ${sections}`)
  await expect(reply.locator('[data-streaming]')).toHaveCount(0)
  // Highlighted: token spans with the theme's colours, and the code's text unchanged.
  const lastCode = reply.locator('pre > code').last()
  await expect(lastCode).toHaveClass(/shiki-highlighted/, { timeout: 15_000 })
  await expect(lastCode).toHaveText(`export const section${sections} = ${sections} * 2`)
  expect(await lastCode.locator('span.shiki-token').first().evaluate(span => (span as HTMLElement).style.getPropertyValue('--shiki-light'))).toMatch(/^#/)
  // By the highlighting worker: the page itself never loaded shiki's regex engine.
  expect(workers.some(url => /highlight\.worker/.test(url))).toBe(true)
  const pageScripts = await page.evaluate(() => performance.getEntriesByType('resource').map(entry => entry.name))
  expect(pageScripts.filter(name => /engine-javascript|shiki/.test(name))).toEqual([])
  expect(violations).toEqual([])
})

test('code shows as plain text first, and highlighted once the worker answers', async ({ page }) => {
  let releaseWorker!: () => void
  const workerHeld = new Promise<void>(resolve => (releaseWorker = resolve))
  await page.context().route('**/_nuxt/highlight.worker-*.js', async (route) => {
    await workerHeld
    await route.continue()
  })
  await openApp(page)
  await sendMessage(page, 'Show me some markdown')
  await waitForIdle(page)
  const code = lastAssistant(page).locator('pre > code[class*="language-"]').first()
  await expect(code).toBeVisible()
  const plain = await code.textContent()
  expect(plain!.length).toBeGreaterThan(0)
  expect(await code.locator('span.shiki-token').count()).toBe(0)
  releaseWorker()
  await expect(code).toHaveClass(/shiki-highlighted/, { timeout: 15_000 })
  expect(await code.locator('span.shiki-token').count()).toBeGreaterThan(0)
  expect(await code.textContent()).toBe(plain!.replace(/\n$/, ''))
})

test('search_chat_history finds the oldest of 10,000 imported messages and a message written a moment ago', async ({ page }) => {
  await openApp(page)
  await importChat(page, longChat('e2e-search-big', 10_000))
  await openApp(page)
  await sendMessage(page, 'My lucky word is zanzibarquux')
  await waitForIdle(page)
  await page.getByTestId('new-thread').click()
  await expect(page.getByTestId('message')).toHaveCount(0)

  await sendMessage(page, 'search my chats for Question 1: what is 1 * 7 + 1, and')
  const card = page.locator('[data-testid="tool-card"][data-tool="search_chat_history"]').last()
  await expect(card).toHaveAttribute('data-status', 'done', { timeout: 30_000 })
  await waitForIdle(page)
  await page.locator('[data-testid="tool-details-toggle"]').last().click()
  await expect(card).toContainText('Long chat (10000 messages)')
  await expect(card).toContainText('Question 1: what is 1 * 7 + 1, and can you explain')

  await sendMessage(page, 'search my chats for zanzibarquux')
  const second = page.locator('[data-testid="tool-card"][data-tool="search_chat_history"]').last()
  await expect(second).toHaveAttribute('data-status', 'done', { timeout: 30_000 })
  await waitForIdle(page)
  await page.locator('[data-testid="tool-details-toggle"]').last().click()
  await expect(second).toContainText('My lucky word is zanzibarquux')
})
