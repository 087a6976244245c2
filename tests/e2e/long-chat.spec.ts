import { expect, test, type Page } from '@playwright/test'
import { openApp, openSeededChat, PROXY_APP_URL, releaseHeldReply, sendMessage, waitForIdle } from './helpers'
import { importChat, longChat } from './support/seed-chat'
import { storedRows } from './support/stored-rows'

// Seeding and paging through thousands of messages takes a while on a shared 2-core machine.
test.setTimeout(180_000)

// A long chat in the virtual message list: only what is near the viewport is in the DOM, yet the user reaches every
// message, finds text, follows the stream, and keeps focus and place.

const list = (page: Page) => page.getByTestId('message-list')

function distanceFromBottom(page: Page) {
  return list(page).evaluate(element => element.scrollHeight - element.scrollTop - element.clientHeight)
}

/** Two animation frames: whatever a change scheduled (virtua's measuring, the follow scroll) has run. */
function twoFrames(page: Page) {
  return page.evaluate(() => new Promise<void>(resolve => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))))
}

/**
 * Waits until more of the streaming reply is stored, then two frames. Read from the store, not the page: the user
 * may have scrolled the reply out of the virtual list.
 */
async function replyGrows(page: Page) {
  const lengthOf = async () => (await storedRows(page)).findLast(row => row.role === 'assistant')?.content.length ?? 0
  const before = await lengthOf()
  await expect.poll(lengthOf, { timeout: 10_000 }).toBeGreaterThan(before)
  await twoFrames(page)
}

/**
 * Whether a click in the middle of the list would reach a message, checked the moment the list next scrolls (by
 * itself, following the reply): what the browser's hit test finds there.
 */
function turnUnderPointerAsTheListScrolls(page: Page) {
  return list(page).evaluate(element => new Promise<boolean>((resolve) => {
    element.addEventListener('scroll', () => {
      const box = element.getBoundingClientRect()
      resolve(!!document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)?.closest('[data-turn-id]'))
    }, { once: true })
  }))
}

/** The turn at the top of the list on each of the next `count` frames. */
function topTurnOverFrames(page: Page, count: number) {
  return page.evaluate(count => new Promise<Array<string | null | undefined>>((resolve) => {
    const seen: Array<string | null | undefined> = []
    const read = () => {
      const box = document.querySelector('[data-testid="message-list"]')!.getBoundingClientRect()
      const turns = [...document.querySelectorAll('[data-turn-id]')].filter(turn => turn.getBoundingClientRect().bottom > box.top + 1)
      seen.push(turns.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0]?.getAttribute('data-turn-id'))
      if (seen.length < count) requestAnimationFrame(read)
      else resolve(seen)
    }
    requestAnimationFrame(read)
  }), count)
}

test.describe('a long chat', () => {
  test('opens at its newest message with only a few messages in the DOM, and scrolling to the top reaches the first', async ({ page }) => {
    const chat = longChat('e2e-long', 2000)
    await openSeededChat(page, chat)
    expect(await page.getByTestId('message').count()).toBeLessThan(100)

    const first = page.locator(`[data-message-id="${chat.messages[0]!.id}"]`)
    await expect.poll(async () => {
      await list(page).evaluate((element) => { element.scrollTop = 0 })
      return first.isVisible()
    }, { timeout: 120_000, intervals: [300] }).toBe(true)
    await expect(first).toContainText('Question 1: what is')
    expect(await page.getByTestId('message').count()).toBeLessThan(100)
  })

  test('a message far up is found by the browser\'s text search once scrolled to', async ({ page }) => {
    const chat = longChat('e2e-search', 2000)
    await openSeededChat(page, chat)
    const target = 'Question 37: what is 37 * 7 + 11'
    const message = page.getByText(target)
    // Not in the page while far away: the list mounts what is near the viewport.
    expect(await message.count()).toBe(0)
    // Up to the first message (older rows are paged in on the way), then down a screen at a time.
    const first = page.locator(`[data-message-id="${chat.messages[0]!.id}"]`)
    await expect.poll(async () => {
      await list(page).evaluate((element) => { element.scrollTop = 0 })
      return first.isVisible()
    }, { timeout: 120_000, intervals: [300] }).toBe(true)
    await expect.poll(async () => {
      await list(page).evaluate((element) => { element.scrollTop += element.clientHeight })
      return message.count()
    }, { timeout: 60_000, intervals: [200] }).toBeGreaterThan(0)
    await message.scrollIntoViewIfNeeded()
    expect(await page.evaluate(text => (window as unknown as { find: (text: string) => boolean }).find(text), target)).toBe(true)
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(target)
  })

  test('follows a streaming reply at the bottom; scrolling up stops that and offers Jump to latest', async ({ page }) => {
    // On the app whose provider is the fake OpenRouter: its reply grows until the test releases it, however long the
    // checks take on a loaded machine (the demo's long reply, 12.5 s at best, could end before them).
    await openSeededChat(page, longChat('e2e-follow', 200), PROXY_APP_URL)
    // its own words, so that the release lets go of this reply only (other workers may hold theirs)
    const marker = `follow test ${test.info().testId}-${test.info().repeatEachIndex}-${test.info().retry}`
    const question = `Keep talking until I say so: the ${marker}`
    await page.getByTestId('composer-input').fill(question)
    await page.getByTestId('composer-input').press('Enter')
    await expect(page.getByText(question)).toBeVisible()
    await expect(page.getByTestId('stop-button')).toBeVisible()
    // While the reply grows, the view comes back to the bottom after each of three growths (the follow scroll runs
    // in the frame after a render, so a read between the two may find the newest line below the view).
    for (let check = 0; check < 3; check++) {
      await replyGrows(page)
      await expect.poll(() => distanceFromBottom(page)).toBeLessThan(40)
    }
    await expect(page.getByTestId('jump-to-latest')).toHaveCount(0)
    // and what the list shows takes clicks while it moves (a virtual list may ignore the pointer while scrolling)
    expect(await turnUnderPointerAsTheListScrolls(page)).toBe(true)

    // The user scrolls up: the view no longer moves with new text, and Jump to latest appears.
    await list(page).hover()
    await page.mouse.wheel(0, -1500)
    await expect(page.getByTestId('jump-to-latest')).toBeVisible()
    const scrolledTo = await list(page).evaluate(element => element.scrollTop)
    await replyGrows(page)
    await replyGrows(page)
    expect(Math.abs(await list(page).evaluate(element => element.scrollTop) - scrolledTo)).toBeLessThan(2)

    await page.getByTestId('jump-to-latest').click()
    await expect(page.getByTestId('jump-to-latest')).toHaveCount(0)
    await expect.poll(() => distanceFromBottom(page)).toBeLessThan(40)
    await replyGrows(page)
    await expect.poll(() => distanceFromBottom(page)).toBeLessThan(40)
    await releaseHeldReply(marker)
    await waitForIdle(page)
    expect(await distanceFromBottom(page)).toBeLessThan(40)
  })

  test('typing a long message at the bottom of a chat: the composer grows up to 12 lines and the newest message stays in view', async ({ page }) => {
    await openSeededChat(page, longChat('e2e-long-message', 40))
    await expect.poll(() => distanceFromBottom(page)).toBeLessThan(40)
    const input = page.getByTestId('composer-input')
    const oneLine = await input.evaluate(element => element.getBoundingClientRect().height)
    await input.click()
    await input.pressSequentially('First line')
    for (let line = 2; line <= 6; line++) await input.press('Shift+Enter')
    await input.pressSequentially('sixth line')
    // Each line the composer took, the list gave up; it stayed at the bottom, and still follows.
    await expect.poll(() => input.evaluate(element => element.getBoundingClientRect().height)).toBeGreaterThan(oneLine + 4 * 20)
    await expect.poll(() => distanceFromBottom(page)).toBeLessThan(40)
    await expect(page.getByTestId('jump-to-latest')).toHaveCount(0)
    // No higher than 12 lines: then the text scrolls inside it.
    for (let line = 7; line <= 20; line++) await input.press('Shift+Enter')
    const height = await input.evaluate(element => element.getBoundingClientRect().height)
    expect(height).toBeLessThan(oneLine * 13)
    expect(await input.evaluate(element => element.scrollHeight > element.clientHeight)).toBe(true)
    await expect.poll(() => distanceFromBottom(page)).toBeLessThan(40)
    await expect(page.getByTestId('jump-to-latest')).toHaveCount(0)
  })

  test('while it follows a streaming reply, the list keeps the turns above the view mounted instead of mounting them again and again', async ({ page }) => {
    await openSeededChat(page, longChat('e2e-follow-mounts', 200), PROXY_APP_URL)
    const marker = `mounts test ${test.info().testId}-${test.info().repeatEachIndex}-${test.info().retry}`
    await page.getByTestId('composer-input').fill(`Keep talking until I say so: the ${marker}`)
    await page.getByTestId('composer-input').press('Enter')
    await expect(page.getByTestId('stop-button')).toBeVisible()
    await replyGrows(page)
    // From here on: every turn the list mounts again after it had unmounted it.
    await list(page).evaluate((element) => {
      const gone = new Set<string>()
      const again: string[] = []
      ;(window as unknown as { mountedAgain: string[] }).mountedAgain = again
      const turnOf = (node: Node) => node instanceof Element ? (node.matches('[data-turn-id]') ? node : node.querySelector('[data-turn-id]')) : null
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.removedNodes) {
            const id = turnOf(node)?.getAttribute('data-turn-id')
            if (id) gone.add(id)
          }
          for (const node of record.addedNodes) {
            const id = turnOf(node)?.getAttribute('data-turn-id')
            if (id && gone.has(id)) again.push(id)
          }
        }
      }).observe(element, { childList: true, subtree: true })
    })
    for (let growth = 0; growth < 6; growth++) {
      await replyGrows(page)
      await expect.poll(() => distanceFromBottom(page)).toBeLessThan(40)
    }
    await releaseHeldReply(marker)
    await waitForIdle(page)
    // before: about 19 turns a second were unmounted by each follow scroll and mounted again when it ended
    expect(await page.evaluate(() => (window as unknown as { mountedAgain: string[] }).mountedAgain)).toEqual([])
  })

  test('a turn scrolled out of the list comes back as the user left it: opened details open, an edit and its draft kept', async ({ page }) => {
    const chat = longChat('e2e-view-state', 200)
    await openSeededChat(page, chat)
    // the last tool card's details opened, the last question being edited with a new draft
    const toggle = page.locator('[data-testid="tool-details-toggle"]').last()
    await toggle.click()
    const cardTurn = await toggle.evaluate(element => element.closest('[data-turn-id]')!.getAttribute('data-turn-id')!)
    const question = page.locator(`[data-message-id="${chat.messages.findLast(row => row.role === 'user')!.id}"]`)
    await question.hover()
    await question.getByTestId('message-edit').click()
    await page.getByTestId('message-editor-input').fill('A better question, half written')
    // The user goes to the composer and scrolls up until both turns are out of the list (unmounted).
    await page.getByTestId('composer-input').focus()
    await expect.poll(async () => {
      await list(page).evaluate((element) => { element.scrollTop = 0 })
      return page.locator(`[data-turn-id="${cardTurn}"]`).count()
    }, { timeout: 30_000 }).toBe(0)
    await expect(question).toHaveCount(0)

    // back down, the focus staying in the composer
    await expect.poll(async () => {
      await list(page).evaluate((element) => { element.scrollTop = element.scrollHeight })
      return page.getByTestId('message-editor-input').count()
    }, { timeout: 30_000 }).toBe(1)
    await expect(page.locator(`[data-turn-id="${cardTurn}"] [data-testid="tool-details"]`)).toBeVisible()
    await expect(page.locator(`[data-turn-id="${cardTurn}"] [data-testid="tool-details-toggle"]`)).toHaveAttribute('aria-expanded', 'true')
    await expect(page.getByTestId('message-editor-input')).toHaveValue('A better question, half written')
    // coming back into view, the editor does not take the focus from where the user is
    await expect(page.getByTestId('composer-input')).toBeFocused()
    // Cancel ends the edit and forgets the draft: the next edit starts from the message as sent.
    await page.getByTestId('message-editor-cancel').click()
    await question.hover()
    await question.getByTestId('message-edit').click()
    await expect(page.getByTestId('message-editor-input')).toHaveValue(chat.messages.findLast(row => row.role === 'user')!.content)
    await expect(page.getByTestId('message-editor-input')).toBeFocused()
  })

  test('keeps the focus on a tool card\'s details while a reply streams in and scrolls it away', async ({ page }) => {
    // the demo's long reply streams for 10 to 30 s on a loaded machine
    test.setTimeout(90_000)
    const chat = longChat('e2e-focus', 200)
    await openSeededChat(page, chat)
    const toggle = page.locator('[data-testid="tool-details-toggle"]').last()
    await toggle.click({ timeout: 10_000 })
    const output = page.locator('[data-testid="tool-output"]').last()
    const callTurn = await output.evaluate(element => element.closest('[data-turn-id]')!.getAttribute('data-turn-id'))

    // The reply is held back until the user is on the card's output. Without this, the reply could scroll the card
    // out of the list (unmounting it) before the focus call reached the page, and `focus()` then waited for an
    // element that never came back: the 3-minute timeout seen in full runs on a loaded machine.
    let releaseReply!: () => void
    const replyHeld = new Promise<void>(resolve => (releaseReply = resolve))
    await page.route('**/api/demo/v1/chat/completions', async (route) => {
      await replyHeld
      await route.continue()
    })
    await page.getByTestId('composer-input').fill('Write something long please')
    await page.getByTestId('composer-input').press('Enter')
    // The user moves to the card's output while the reply streams in, without moving the view (as a click on its
    // visible part does). A focus that has to scroll the view up to show the output counts as scrolling up, which
    // stops the list following the reply (the test above): whether it had to depended on how far the new question
    // had pushed the card when the focus came, so the test passed or failed with the machine's timing.
    await expect(output).toBeInViewport()
    await output.evaluate(element => (element as HTMLElement).focus({ preventScroll: true }))
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('tool-output')
    releaseReply()
    await expect(page.getByTestId('message').last()).toContainText('A long scripted reply', { timeout: 20_000 })
    await waitForIdle(page, { timeout: 60_000 })
    // The card was scrolled far out of view by the reply, and is still the focused element.
    await expect(page.locator(`[data-turn-id="${callTurn}"]`)).not.toBeInViewport()
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('tool-output')
    expect(await page.evaluate(() => document.activeElement?.closest('[data-turn-id]')?.getAttribute('data-turn-id'))).toBe(callTurn)
    // Keyboard navigation goes on from there, inside the same card.
    await page.keyboard.press('Shift+Tab')
    expect(await page.evaluate(() => document.activeElement?.closest('[data-turn-id]')?.getAttribute('data-turn-id'))).toBe(callTurn)
  })

  test('each chat opens where the user left it', async ({ page }) => {
    const first = longChat('e2e-place-a', 400)
    const second = longChat('e2e-place-b', 40)
    await openApp(page)
    await importChat(page, second)
    await openSeededChat(page, first)
    await list(page).hover()
    for (let step = 0; step < 6; step++) await page.mouse.wheel(0, -800)
    await expect(page.getByTestId('jump-to-latest')).toBeVisible()
    const topMessage = () => page.evaluate(() => {
      const box = document.querySelector('[data-testid="message-list"]')!.getBoundingClientRect()
      const turns = [...document.querySelectorAll('[data-turn-id]')].filter(turn => turn.getBoundingClientRect().bottom > box.top + 1)
      return turns.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0]?.getAttribute('data-turn-id')
    })
    // the wheel's scrolling has ended once two reads a poll apart agree
    let previous: string | null | undefined = null
    await expect.poll(async () => {
      const now = await topMessage()
      const settled = now === previous
      previous = now
      return settled
    }).toBe(true)
    const before = await topMessage()

    await page.getByTestId('thread-item').filter({ hasText: 'Long chat (40 messages)' }).click()
    await expect(page.locator(`[data-message-id="${second.messages.at(-1)!.id}"]`)).toBeVisible()
    await page.getByTestId('thread-item').filter({ hasText: 'Long chat (400 messages)' }).click()
    await expect(page.locator(`[data-turn-id="${before}"]`)).toBeVisible()
    // virtua places the turn and corrects the position as the turns around it are measured (a frame or two)
    await expect.poll(topMessage).toBe(before)
    expect(await topTurnOverFrames(page, 20), 'and it stays there').toEqual(Array.from({ length: 20 }, () => before))
    await expect(page.getByTestId('jump-to-latest')).toBeVisible()
  })
})

test.describe('the first load', () => {
  test('hashed assets are sent compressed (brotli, gzip) and cached for a year', async ({ page, request }) => {
    const scripts: string[] = []
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/_nuxt/') && response.url().endsWith('.js')) scripts.push(response.url())
    })
    await openApp(page)
    expect(scripts.length).toBeGreaterThan(0)
    for (const encoding of ['br', 'gzip']) {
      const response = await request.get(scripts[0]!, { headers: { 'accept-encoding': encoding } })
      expect(response.headers()['content-encoding']).toBe(encoding)
      expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
    }
    // The page itself must not be cached that way: a new deploy has to reach the user.
    const html = await request.get('/')
    expect(html.headers()['cache-control'] ?? '').not.toContain('immutable')
  })

  test('the message list, the settings panel and the loop engine are not loaded before they are needed', async ({ page }) => {
    const loaded: string[] = []
    page.on('response', (response) => {
      if (response.url().endsWith('.js')) loaded.push(response.url())
    })
    await openApp(page)
    const atStart = loaded.length
    await page.getByTestId('settings-open').click()
    await expect(page.getByRole('dialog')).toBeVisible()
    // Opening the panel fetched its code; it still works as before.
    expect(loaded.length).toBeGreaterThan(atStart)
    const withSettings = loaded.length
    await page.keyboard.press('Escape')
    await sendMessage(page, 'Hello there')
    await waitForIdle(page)
    await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText(/scripted demo/i)
    // The first message fetched the list and the loop engine.
    expect(loaded.length).toBeGreaterThan(withSettings)
  })
})
