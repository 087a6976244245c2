// Token to paint matches a token seen by a reader (the page's frame, an SSE reader) to the moment the upstream wrote
// it. Several runs share one upstream, and a run's chat may ask it more than once (a title request quotes the
// question), so every run's words carry the run's own nonce and only that run's writes are matched to them; a run
// whose writes are ambiguous or whose reader saw something else is rejected with the reason, never averaged in.
import { randomBytes } from 'node:crypto'

/** A fresh run nonce: six lowercase letters, so a run's words stay one word for markdown and for `\b`. */
export function newRunNonce(): string {
  return [...randomBytes(6)].map(byte => String.fromCharCode(97 + (byte % 26))).join('')
}

/** The text of token `index` of run `nonce`: a word a reader can find again and tell apart from other runs'. */
export const runToken = (nonce: string, index: number) => `tok${nonce}x${index}`
const TOKEN_PATTERN = /\btok([a-z]{6})x(\d+)\b/g

/** A token found by a reader: its run, its number, when the reader first had it (ms, same clock as the writes). */
export interface Sighting {
  nonce: string
  index: number
  at: number
}

/** The run tokens in `text`, each stamped `at`. */
export function findTokens(text: string, at: number): Sighting[] {
  return [...text.matchAll(TOKEN_PATTERN)].map(match => ({ nonce: match[1]!, index: Number(match[2]), at }))
}

/** When the upstream wrote each token, per run and per answer (a run answered twice has two lists). */
export class WriteLog {
  private readonly runs = new Map<string, number[][]>()

  /** A new answer for run `nonce`: the list its writes go to, by token number. */
  begin(nonce: string): number[] {
    const writes: number[] = []
    this.runs.set(nonce, [...(this.runs.get(nonce) ?? []), writes])
    return writes
  }

  answers(nonce: string): number[][] {
    return this.runs.get(nonce) ?? []
  }

  /** Forgets a run once matched: a long bench keeps no history. */
  forget(nonce: string): void {
    this.runs.delete(nonce)
  }
}

/** One run's figures, or why it has none. */
export interface MatchedRun {
  /** Write → sighting, ms, by token number. Empty when rejected. */
  latencies: number[]
  /** Tokens of this run the reader saw. */
  tokensSeen: number
  /** Why the run cannot be matched; the run is left out of the figures then. */
  rejected?: string
}

/**
 * Matches the sightings of run `nonce` to that run's own writes. Rejected when the upstream did not answer the run
 * exactly once, when the reader saw another run's tokens, a token that was never written or seen before it was
 * written, or fewer than `expected` tokens.
 */
export function matchRun(sightings: Sighting[], log: WriteLog, nonce: string, expected: number): MatchedRun {
  const first = new Map<number, number>()
  let foreign = 0
  for (const sighting of sightings) {
    if (sighting.nonce !== nonce) foreign++
    else if (!first.has(sighting.index) || sighting.at < first.get(sighting.index)!) first.set(sighting.index, sighting.at)
  }
  const reject = (reason: string): MatchedRun => ({ latencies: [], tokensSeen: first.size, rejected: reason })
  const answers = log.answers(nonce)
  if (answers.length !== 1) return reject(answers.length ? `the upstream answered this run ${answers.length} times` : 'the upstream never answered this run')
  if (foreign) return reject(`${foreign} tokens of another run on screen`)
  const writes = answers[0]!
  const latencies: number[] = []
  for (const [index, at] of [...first].sort(([a], [b]) => a - b)) {
    const written = writes[index]
    if (written === undefined) return reject(`token ${index} seen but never written`)
    if (at < written) return reject(`token ${index} seen before it was written`)
    latencies.push(at - written)
  }
  if (first.size < expected) return reject(`${first.size} of ${expected} tokens seen`)
  return { latencies, tokensSeen: first.size }
}

/** The `share` quantile (0–1) of `values`, nearest rank; NaN when empty. */
export function quantile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]! : Number.NaN
}
