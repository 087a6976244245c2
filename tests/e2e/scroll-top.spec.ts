import { expect, test, type Page } from '@playwright/test'
import { groupMessageTurns } from '../../app/utils/chat/message-list/message-turns'
import { openSeededChat } from './helpers'
import { longChat } from './support/seed-chat'

// Scrolling a 2,000-message chat with the mouse wheel as a user flicks it: turns that come into view while the
// wheel turns may show a stand-in for a frame or two (they are mounted over the next frames), older rows are paged
// in on the way, and once the wheel stops every turn on screen is whole, in order, with nothing missing or doubled.
// Between wheel turns what the user looks at stays where it is: a stand-in has its turn's height (learned from the
// turns measured before), and the list leaves virtua's keep-the-end mode once older rows put in have been scrolled
// over (patches/virtua+*.patch). Before both, the turn under the pointer moved in 64-86 frames of a flick, up to 88 px
// at once, and a flick that ended at the first question could see it pushed out of view.

test.setTimeout(180_000)

const list = (page: Page) => page.getByTestId('message-list')

/**
 * The turns a user sees in the list's view, top to bottom, once the page holds every one of them (no gap from the
 * view's top to its bottom); undefined while it does not. A scroll is drawn at the next frame: until then the page
 * may still hold only the turns around the place before.
 */
function turnsInView(page: Page) {
  return list(page).evaluate((element) => {
    const view = element.getBoundingClientRect()
    const turns = Array.from(element.querySelectorAll('[data-turn-id]'), turn => ({ id: turn.getAttribute('data-turn-id')!, box: turn.getBoundingClientRect() }))
      .filter(({ box }) => box.bottom > view.top && box.top < view.bottom)
      .sort((a, b) => a.box.top - b.box.top)
    // Above the first turn there is only the list's margin.
    let reached = element.scrollTop === 0 && turns[0] ? turns[0].box.top : view.top
    for (const { box } of turns) {
      if (box.top > reached + 1) return undefined
      reached = Math.max(reached, box.bottom)
    }
    return reached >= view.bottom - 1 ? turns.map(turn => turn.id) : undefined
  })
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

    // Each frame, the turn under the pointer and where it is: between two frames with no wheel turn, it must not move.
    await list(page).evaluate((element) => {
      const moves: Array<{ turn: string, px: number }> = []
      ;(window as unknown as { listMoves: typeof moves }).listMoves = moves
      let wheeled = false
      element.addEventListener('wheel', () => { wheeled = true }, { passive: true })
      const view = element.getBoundingClientRect()
      let before: { turn: string, top: number } | undefined
      const frame = () => {
        const turn = document.elementFromPoint(view.left + view.width / 2, view.top + view.height / 2)?.closest('[data-turn-id]')
        const now = turn ? { turn: turn.getAttribute('data-turn-id')!, top: turn.getBoundingClientRect().top } : undefined
        if (!wheeled && before && now?.turn === before.turn && Math.abs(now.top - before.top) > 1) moves.push({ turn: now.turn, px: Math.round(now.top - before.top) })
        wheeled = false
        before = now
        requestAnimationFrame(frame)
      }
      requestAnimationFrame(frame)
    })

    const first = page.locator(`[data-message-id="${chat.messages[0]!.id}"]`)
    let standInsSeen = 0
    await expect.poll(async () => {
      await page.mouse.wheel(0, -2400)
      standInsSeen += await page.getByTestId('message-stand-in').count()
      return first.isVisible()
    }, { timeout: 150_000, intervals: [100] }).toBe(true)

    // The wheel stopped: what waited is mounted, nothing is left as a stand-in. Read in one go, and waited for: once
    // the wheel stops the list widens its overscan, and the turns it adds mount over the next frames like any other.
    await expect(first).toContainText('Question 1: what is 1 * 7 + 1')
    let shown: string[] = []
    await expect.poll(async () => {
      const read = await page.evaluate(() => {
        const turns = Array.from(document.querySelectorAll('[data-turn-id]'))
        return {
          shown: turns.map(turn => turn.getAttribute('data-turn-id')!),
          // each turn in the page holds its message, none a stand-in
          whole: turns.every(turn => turn.querySelector('[data-testid="message"]') && !turn.querySelector('[data-testid="message-stand-in"]')),
        }
      })
      shown = read.shown
      return read.whole
    }).toBe(true)
    expect(shown[0]).toBe(turnIds[0])
    expectConsecutive(shown, turnIds)
    // nothing moved on its own on the way up (a pixel of rounding aside)
    expect(await page.evaluate(() => (window as unknown as { listMoves: unknown[] }).listMoves)).toEqual([])
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
      let inView: string[] | undefined
      await expect.poll(async () => (inView = await turnsInView(page)) !== undefined).toBe(true)
      for (const id of inView!) if (!seen.includes(id)) seen.push(id)
      await list(page).evaluate((element) => { element.scrollTop += element.clientHeight * 0.8 })
    }
    // in this order, so a failure names the turn that was skipped
    expect(seen[0]).toBe(turnIds[0])
    expectConsecutive(seen, turnIds)
    expect(seen.length).toBeGreaterThan(150)
  })
})
