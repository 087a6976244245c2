import { expect, test, type Page } from '@playwright/test'
import { groupMessageTurns } from '../../app/utils/chat/message-list/message-turns'
import { openSeededChat } from './helpers'
import { longChat } from './support/seed-chat'

// Scrolling a 2,000-message chat with the mouse wheel as a user flicks it: turns that come into view while the
// wheel turns may show a stand-in for a frame or two (they are mounted over the next frames), older rows are paged
// in on the way, and once the wheel stops every turn on screen is whole, in order, with nothing missing or doubled.

test.setTimeout(180_000)

const list = (page: Page) => page.getByTestId('message-list')

/** The turns in the DOM, top to bottom (the virtual list keeps them in order). */
function turnsInPage(page: Page) {
  return page.locator('[data-turn-id]').evaluateAll(turns => turns.map(turn => turn.getAttribute('data-turn-id')!))
}

/** `shown` is a run of consecutive turns of the chat: none missing, none doubled, in order. */
function expectConsecutive(shown: string[], all: string[]) {
  const start = all.indexOf(shown[0]!)
  expect(start, `${shown[0]} is a turn of the chat`).toBeGreaterThanOrEqual(0)
  expect(shown).toEqual(all.slice(start, start + shown.length))
}

test.describe('scrolling a long chat with the mouse wheel', () => {
  test('flicking up reaches the first message, and once the wheel stops every turn is whole and in order', async ({ page }) => {
    const chat = longChat('e2e-flick', 2000)
    const turnIds = groupMessageTurns(chat.messages).map(turn => turn.message.id)
    await openSeededChat(page, chat)
    const box = (await list(page).boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)

    const first = page.locator(`[data-message-id="${chat.messages[0]!.id}"]`)
    let standInsSeen = 0
    await expect.poll(async () => {
      await page.mouse.wheel(0, -2400)
      standInsSeen += await page.getByTestId('message-stand-in').count()
      return first.isVisible()
    }, { timeout: 150_000, intervals: [100] }).toBe(true)

    // The wheel stopped: what waited is mounted, nothing is left as a stand-in.
    await expect(page.getByTestId('message-stand-in')).toHaveCount(0)
    await expect(first).toContainText('Question 1: what is 1 * 7 + 1')
    // The turns and their messages read in one go: the list may still mount a turn between two separate reads.
    const { shown, messages } = await page.evaluate(() => ({
      shown: Array.from(document.querySelectorAll('[data-turn-id]'), turn => turn.getAttribute('data-turn-id')!),
      messages: document.querySelectorAll('[data-turn-id] [data-testid="message"]').length,
    }))
    expect(shown[0]).toBe(turnIds[0])
    expectConsecutive(shown, turnIds)
    // Each turn in the page holds its message.
    expect(messages).toBe(shown.length)
    test.info().annotations.push({ type: 'stand-ins seen while flicking', description: String(standInsSeen) })
  })

  test('scrolling back down from the first message shows every turn on the way, once and in order', async ({ page }) => {
    const chat = longChat('e2e-down', 2000)
    const turnIds = groupMessageTurns(chat.messages).map(turn => turn.message.id)
    await openSeededChat(page, chat)
    const first = page.locator(`[data-message-id="${chat.messages[0]!.id}"]`)
    await expect.poll(async () => {
      await list(page).evaluate((element) => { element.scrollTop = 0 })
      return first.isVisible()
    }, { timeout: 120_000, intervals: [300] }).toBe(true)

    // Down a screen at a time through the first 150 turns (past two of the pages read on the way up).
    const seen: string[] = []
    for (let step = 0; step < 400 && !seen.includes(turnIds[150]!); step++) {
      await expect(page.getByTestId('message-stand-in')).toHaveCount(0)
      for (const id of await turnsInPage(page)) if (!seen.includes(id)) seen.push(id)
      await list(page).evaluate((element) => { element.scrollTop += element.clientHeight * 0.8 })
    }
    // in this order, so a failure names the turn that was skipped
    expect(seen[0]).toBe(turnIds[0])
    expectConsecutive(seen, turnIds)
    expect(seen.length).toBeGreaterThan(150)
  })
})
