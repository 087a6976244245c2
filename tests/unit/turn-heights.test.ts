// A turn's stand-in (shown while the list mounts turns over frames) is close to the turn's real height, so the
// list moves little when the turn replaces it. Real heights measured in Chromium at 1280 px on the long chat:
// user 40 px, a turn with one tool card 60 px, an answer of four short blocks 160 px.
import { describe, expect, it } from 'vitest'
import { groupMessageTurns } from '~/utils/chat/message-list/message-turns'
import { estimateTurnHeight } from '~/utils/chat/message-list/turn-heights'
import { longChat } from '../e2e/support/seed-chat'

describe('estimateTurnHeight', () => {
  const turns = groupMessageTurns(longChat('t-heights', 8).messages)

  it.each([
    ['a one-line question', 0, 40],
    ['a turn with one tool card', 1, 60],
    ['an answer of four short blocks', 2, 160],
  ])('guesses %s within a quarter of its real height', (_what, index, real) => {
    const estimate = estimateTurnHeight(turns[index]!)
    expect(Math.abs(estimate - real)).toBeLessThanOrEqual(real / 4)
  })

  it('grows with the text', () => {
    const short = turns[2]!
    const long = { ...short, message: { ...short.message, content: `${short.message.content}\n\n${'A longer paragraph. '.repeat(40)}` } }
    expect(estimateTurnHeight(long)).toBeGreaterThan(estimateTurnHeight(short) + 100)
  })
})
