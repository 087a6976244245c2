import { expect, test, type Page } from '@playwright/test'
import { openApp } from './helpers'
import { importChat, longChat, type SeededChat } from './support/seed-chat'

// Opening a chat is spread over short tasks: the page mounts in steps, the toaster with the first toast, and the
// markdown of finished messages within a per-task budget (the rest of a long answer over the next frames). What the
// user sees must not change: every message whole, no caret on a finished answer, toasts still shown.

test.setTimeout(120_000)

/** A chat whose newest answers are long (`sections` headed sections each, four blocks a section). */
function chatWithLongAnswers(threadId: string, sections: number): SeededChat {
  const chat = longChat(threadId, 40)
  const body = Array.from({ length: sections }, (_, index) =>
    `## Part ${index}\n\nText of part ${index} with **bold**, \`code\` and a [link](https://example.com/${index}).\n\n- a\n- b\n\n\`\`\`ts\nconst part = ${index}\n\`\`\``).join('\n\n')
  for (const message of chat.messages.slice(-8)) {
    if (message.role === 'assistant' && message.content) message.content = `${message.content}\n\n${body}`
  }
  return chat
}

/** Records, from before the app's first script, whether a caret or a moving tail ever appeared in the page. */
async function watchForCarets(page: Page) {
  await page.addInitScript(`(() => {
    window.__caretSeen = false
    new MutationObserver(() => {
      if (document.querySelector('.chat-markdown-tail, [data-testid="streaming-caret"], [data-slot="content"][data-streaming]')) window.__caretSeen = true
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'data-streaming'] })
  })()`)
}

test.describe('opening a chat', () => {
  test('shows the newest long answers whole, with no caret on any finished message while they render', async ({ page }) => {
    const sections = 120
    const chat = chatWithLongAnswers('e2e-open-long-answers', sections)
    await openApp(page)
    await importChat(page, chat)
    await watchForCarets(page)
    await openApp(page, `/?thread=${chat.thread.id}`)
    const newest = page.locator(`[data-message-id="${chat.messages.at(-1)!.id}"]`)
    await expect(newest).toBeVisible({ timeout: 20_000 })
    // Everything pending is rendered, and the newest answer has every section, in order, and its closing code.
    await expect(page.locator('[data-rendering]')).toHaveCount(0, { timeout: 30_000 })
    const headings = newest.locator('h2')
    await expect(headings).toHaveCount(sections)
    await expect(headings.first()).toHaveText('Part 0')
    await expect(headings.last()).toHaveText(`Part ${sections - 1}`)
    await expect(newest.locator('code.language-ts').last()).toContainText(`const part = ${sections - 1}`)
    // The answer starts with the stored answer's own text, before the appended sections.
    await expect(newest.locator('[data-slot="markdown-block"]').first()).toContainText('Answer 10:')
    expect(await page.evaluate(() => (window as unknown as { __caretSeen: boolean }).__caretSeen)).toBe(false)
    await expect(page.locator('main')).toHaveAttribute('data-streaming', 'false')
  })

  test('every message near the bottom of a 2,000-message chat is whole once it has opened', async ({ page }) => {
    const chat = longChat('e2e-open-whole', 2000)
    await openApp(page)
    await importChat(page, chat)
    await watchForCarets(page)
    await openApp(page, `/?thread=${chat.thread.id}`)
    await expect(page.locator(`[data-message-id="${chat.messages.at(-1)!.id}"]`)).toBeVisible({ timeout: 20_000 })
    await expect(page.locator('[data-rendering]')).toHaveCount(0, { timeout: 30_000 })
    // Each mounted answer shows its whole stored text: its bold sum and both list items. Found by id, not by position:
    // the list widens its buffer above in idle steps after the first paint, so the first answer mounted now may not be
    // the first one a moment later.
    const answers = page.locator('[data-testid="message"][data-role="assistant"]').filter({ has: page.locator('[data-slot="content"]') })
    const ids = await answers.evaluateAll(nodes => nodes.map(node => node.getAttribute('data-message-id')!))
    expect(ids.length).toBeGreaterThan(1)
    for (const id of ids) {
      const answer = page.locator(`[data-message-id="${id}"]`)
      const stored = chat.messages.find(message => message.id === id)!
      const sum = /\*\*(.+?)\*\*/.exec(stored.content)![1]!
      await expect(answer.locator('strong')).toHaveText(sum)
      await expect(answer.locator('li')).toHaveCount(2)
    }
    expect(await page.evaluate(() => (window as unknown as { __caretSeen: boolean }).__caretSeen)).toBe(false)
  })

  test('a toast is still shown although the toaster loads with the first toast', async ({ page }) => {
    // the database is opened (and created) at start-up on every page
    await page.goto('/audit')
    await expect(page.getByTestId('audit-retention')).toBeVisible({ timeout: 20_000 })
    await page.evaluate(() => new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('plugboard')
      open.onerror = () => reject(open.error)
      open.onsuccess = () => {
        const db = open.result
        const transaction = db.transaction('audit', 'readwrite')
        transaction.objectStore('audit').put({ id: 'toast-run', toolName: 'calculate', toolCallId: 'call_toast', argumentsAsked: '{"expression":"1+1"}', status: 'done', startedAt: Date.now() })
        transaction.oncomplete = () => { db.close(); resolve() }
        transaction.onerror = () => reject(transaction.error)
      }
    }))
    await page.reload()
    await page.getByTestId('audit-clear').click()
    await page.getByTestId('audit-clear-confirm').click()
    await expect(page.getByText('Audit log cleared', { exact: true })).toBeVisible()
  })
})
