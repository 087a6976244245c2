/**
 * A hybrid logical clock: physical milliseconds plus a counter plus the device's node id, encoded as a string whose
 * order is the clock's order (`0001795716000000:0000:node`). Two devices' writes to one record are ordered by it
 * even when their wall clocks disagree a little; a clock far ahead of ours is refused, so one device with a broken
 * clock cannot make its writes win forever.
 */

/** How far ahead of our own wall clock a received clock may be. @default 5 minutes */
export const DEFAULT_MAX_DRIFT_MS = 5 * 60_000

const MAX_COUNTER = 0xFFFF
const HLC_PATTERN = /^(\d{16}):([0-9a-f]{4}):([\w-]{1,40})$/

export interface Hlc {
  wallMs: number
  counter: number
  node: string
}

/** Thrown by `receive` when a clock is further ahead than the drift bound. */
export class ClockDriftError extends Error {
  constructor(readonly remoteMs: number, readonly localMs: number, readonly maxDriftMs: number) {
    super(`A clock ${Math.round((remoteMs - localMs) / 1000)} s ahead of this one was refused (at most ${Math.round(maxDriftMs / 1000)} s).`)
    this.name = 'ClockDriftError'
  }
}

/** The string form, ordered like the clock. */
export function encodeHlc(hlc: Hlc): string {
  return `${String(hlc.wallMs).padStart(16, '0')}:${hlc.counter.toString(16).padStart(4, '0')}:${hlc.node}`
}

/** The clock of a string, or undefined when it is not one. */
export function decodeHlc(text: string): Hlc | undefined {
  const match = HLC_PATTERN.exec(text)
  if (!match) return undefined
  return { wallMs: Number(match[1]), counter: Number.parseInt(match[2]!, 16), node: match[3]! }
}

/** Whether `text` is an encoded clock. */
export function isHlc(text: unknown): text is string {
  return typeof text === 'string' && HLC_PATTERN.test(text)
}

/** Orders two encoded clocks: negative, zero or positive. */
export function compareHlc(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export interface HlcClockOptions {
  /** The wall clock. @default Date.now */
  now?: () => number
  /** @default DEFAULT_MAX_DRIFT_MS */
  maxDriftMs?: number
}

/** One device's clock: `now()` for each local write, `receive()` for each clock seen from elsewhere. */
export function createHlcClock(node: string, options: HlcClockOptions = {}) {
  const { now: wall = Date.now, maxDriftMs = DEFAULT_MAX_DRIFT_MS } = options
  if (!/^[\w-]{1,40}$/.test(node)) throw new Error('A clock\'s node id is 1 to 40 letters, digits, _ or -.')
  let last: Hlc = { wallMs: 0, counter: 0, node }

  function advance(wallMs: number, counter: number): string {
    if (counter > MAX_COUNTER) {
      // More than 65,536 writes in one millisecond: borrow the next millisecond instead of wrapping.
      wallMs += 1
      counter = 0
    }
    last = { wallMs, counter, node }
    return encodeHlc(last)
  }

  return {
    node,
    /** A clock later than every clock this device issued or received. */
    now(): string {
      const physical = wall()
      return physical > last.wallMs ? advance(physical, 0) : advance(last.wallMs, last.counter + 1)
    },
    /** Moves this clock past `remote`; throws ClockDriftError when `remote` is too far ahead of the wall clock. */
    receive(remote: string): void {
      const seen = decodeHlc(remote)
      if (!seen) throw new Error(`Not a clock: ${remote.slice(0, 60)}`)
      const physical = wall()
      if (seen.wallMs - physical > maxDriftMs) throw new ClockDriftError(seen.wallMs, physical, maxDriftMs)
      if (physical > last.wallMs && physical > seen.wallMs) return void advance(physical, 0)
      if (seen.wallMs > last.wallMs) return void advance(seen.wallMs, seen.counter + 1)
      if (last.wallMs > seen.wallMs) return void advance(last.wallMs, last.counter + 1)
      advance(last.wallMs, Math.max(last.counter, seen.counter) + 1)
    },
  }
}

export type HlcClock = ReturnType<typeof createHlcClock>
