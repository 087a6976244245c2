import { afterEach, describe, expect, it } from 'vitest'
import { findTokens, matchRun, newRunNonce, quantile, runToken, WriteLog, type Sighting } from '../../bench/ui/token-match'
import { startLongReplyModel, TRICKLE_TOKENS, tricklePrompt } from '../../bench/ui/long-reply'
import type { LoopbackServer } from '../../bench/lib/loopback-server'

/** A reader's sightings of run `nonce`'s tokens 0, 1, … at `times`. */
const sightingsOf = (nonce: string, times: number[]): Sighting[] => times.map((at, index) => ({ nonce, index, at }))

/** A log where run `nonce` was answered once with `times` as its writes. */
function logWith(log: WriteLog, nonce: string, times: number[]) {
  log.begin(nonce).push(...times)
  return log
}

describe('token to paint: matching a run\'s tokens to its own writes', () => {
  it('matches each token to the write of its own run, even when another run wrote the same token numbers later', () => {
    const log = logWith(logWith(new WriteLog(), 'aaaaaa', [100, 140, 180]), 'bbbbbb', [1_000, 1_040, 1_080])
    const matched = matchRun(sightingsOf('aaaaaa', [105, 150, 190]), log, 'aaaaaa', 3)
    expect(matched).toEqual({ latencies: [5, 10, 10], tokensSeen: 3 })
  })

  it('keeps a token\'s first sighting (the frame that painted it), not a later one', () => {
    const log = logWith(new WriteLog(), 'aaaaaa', [100])
    expect(matchRun([{ nonce: 'aaaaaa', index: 0, at: 130 }, { nonce: 'aaaaaa', index: 0, at: 112 }], log, 'aaaaaa', 1).latencies).toEqual([12])
  })

  it('rejects a run the upstream answered twice (which answer was on screen cannot be told)', () => {
    const log = logWith(logWith(new WriteLog(), 'aaaaaa', [100, 140]), 'aaaaaa', [300, 340])
    expect(matchRun(sightingsOf('aaaaaa', [105, 150]), log, 'aaaaaa', 2)).toMatchObject({ latencies: [], rejected: 'the upstream answered this run 2 times' })
  })

  it('rejects a run the upstream never answered', () => {
    expect(matchRun(sightingsOf('aaaaaa', [105]), new WriteLog(), 'aaaaaa', 1).rejected).toBe('the upstream never answered this run')
  })

  it('rejects a run whose screen shows another run\'s tokens', () => {
    const log = logWith(logWith(new WriteLog(), 'aaaaaa', [100]), 'bbbbbb', [90])
    const sightings = [...sightingsOf('aaaaaa', [105]), ...sightingsOf('bbbbbb', [105])]
    expect(matchRun(sightings, log, 'aaaaaa', 1).rejected).toBe('1 tokens of another run on screen')
  })

  it('rejects a token seen before it was written, one never written, and a run with tokens missing', () => {
    const log = logWith(new WriteLog(), 'aaaaaa', [100, 140])
    expect(matchRun(sightingsOf('aaaaaa', [105, 120]), log, 'aaaaaa', 2).rejected).toBe('token 1 seen before it was written')
    expect(matchRun(sightingsOf('aaaaaa', [105, 150, 190]), log, 'aaaaaa', 3).rejected).toBe('token 2 seen but never written')
    expect(matchRun(sightingsOf('aaaaaa', [105]), log, 'aaaaaa', 2)).toMatchObject({ tokensSeen: 1, rejected: '1 of 2 tokens seen' })
  })

  it('finds a run\'s words in text, and nothing in ordinary words', () => {
    const nonce = newRunNonce()
    expect(nonce).toMatch(/^[a-z]{6}$/)
    expect(findTokens(`${runToken(nonce, 0)} ${runToken(nonce, 12)} w3 tokens x12`, 7)).toEqual([{ nonce, index: 0, at: 7 }, { nonce, index: 12, at: 7 }])
  })

  it('takes quantiles by nearest rank', () => {
    expect(quantile([5, 1, 4, 2, 3], 0.5)).toBe(3)
    expect(quantile([...Array.from({ length: 20 }, (_, index) => index + 1)], 0.95)).toBe(19)
    expect(quantile([], 0.5)).toBeNaN()
  })
})

describe('the bench model\'s trickled reply', () => {
  let model: LoopbackServer | undefined
  afterEach(() => model?.close())

  const ask = async (body: object) => {
    const response = await fetch(`${model!.url}/api/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return response.text()
  }

  it('answers each run with its own words under its own nonce, and a title request quoting the run with a title', async () => {
    const log = new WriteLog()
    model = await startLongReplyModel('unused', undefined, log)
    const [first, second] = [newRunNonce(), newRunNonce()]
    const [firstReply, secondReply, title] = await Promise.all([
      ask({ messages: [{ role: 'user', content: tricklePrompt(first) }] }),
      ask({ messages: [{ role: 'user', content: tricklePrompt(second) }] }),
      ask({ messages: [{ role: 'system', content: 'Write a title for this conversation in at most 6 words.' }, { role: 'user', content: `Question:\n${tricklePrompt(first)}` }] }),
    ])
    expect(findTokens(title, 0)).toEqual([])
    for (const [nonce, reply] of [[first, firstReply], [second, secondReply]] as const) {
      const sightings = findTokens(reply, Number.MAX_SAFE_INTEGER)
      expect(sightings.every(sighting => sighting.nonce === nonce)).toBe(true)
      const matched = matchRun(sightings, log, nonce, TRICKLE_TOKENS)
      expect(matched.rejected).toBeUndefined()
      expect(matched.tokensSeen).toBe(TRICKLE_TOKENS)
    }
  })
})
