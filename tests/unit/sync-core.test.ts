import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fuzzOptions } from './helpers/fuzz-options'
import { ClockDriftError, compareHlc, createHlcClock, decodeHlc, encodeHlc } from '#shared/sync/hlc'
import { mergeChanges, winningChange } from '#shared/sync/merge-change'
import { syncPushSchema } from '#shared/sync/sync-protocol'
import type { SyncChange } from '#shared/sync/sync-record'
import { syncBodyOf } from '#shared/sync/sync-record'

describe('the hybrid logical clock', () => {
  it('issues ever later clocks, even when the wall clock stands still or goes back', () => {
    let wall = 1_000
    const clock = createHlcClock('a', { now: () => wall })
    const issued = [clock.now(), clock.now()]
    wall = 500
    issued.push(clock.now())
    wall = 2_000
    issued.push(clock.now())
    for (let index = 1; index < issued.length; index++) expect(compareHlc(issued[index]!, issued[index - 1]!)).toBeGreaterThan(0)
    expect(decodeHlc(issued[2]!)).toEqual({ wallMs: 1_000, counter: 2, node: 'a' })
  })

  it('orders a write after a clock received from a device whose wall clock is ahead', () => {
    const ahead = createHlcClock('b', { now: () => 5_000 })
    const behind = createHlcClock('a', { now: () => 1_000 })
    const theirs = ahead.now()
    behind.receive(theirs)
    expect(compareHlc(behind.now(), theirs)).toBeGreaterThan(0)
  })

  it('refuses a clock further ahead than the drift bound', () => {
    const clock = createHlcClock('a', { now: () => 0, maxDriftMs: 1_000 })
    expect(() => clock.receive(encodeHlc({ wallMs: 5_000, counter: 0, node: 'b' }))).toThrow(ClockDriftError)
    expect(() => clock.receive('not a clock')).toThrow(/Not a clock/)
  })

  it('orders the string form as the clock, past a counter overflow', () => {
    fc.assert(fc.property(
      fc.record({ wallMs: fc.nat(2 ** 45), counter: fc.nat(0xFFFF), node: fc.constantFrom('a', 'b') }),
      fc.record({ wallMs: fc.nat(2 ** 45), counter: fc.nat(0xFFFF), node: fc.constantFrom('a', 'b') }),
      (a, b) => {
        const byFields = a.wallMs - b.wallMs || a.counter - b.counter || (a.node < b.node ? -1 : a.node > b.node ? 1 : 0)
        expect(Math.sign(compareHlc(encodeHlc(a), encodeHlc(b)))).toBe(Math.sign(byFields))
      },
    ), fuzzOptions(200))
    const clock = createHlcClock('a', { now: () => 7 })
    let previous = clock.now()
    for (let index = 0; index < 70_000; index++) {
      const next = clock.now()
      if (next <= previous) throw new Error(`clock went back: ${next} after ${previous}`)
      previous = next
    }
  })
})

const change = (patch: Partial<SyncChange>): SyncChange => ({ kind: 'thread', id: 't1', hlc: encodeHlc({ wallMs: 1, counter: 0, node: 'a' }), deleted: false, body: { id: 't1' }, ...patch })
const at = (wallMs: number, node = 'a') => encodeHlc({ wallMs, counter: 0, node })

describe('merging changes', () => {
  it('keeps the last writer of a thread or preset, and lets a tombstone beat older writes only', () => {
    const older = change({ hlc: at(1), body: { id: 't1', title: 'old' } })
    const deleted = change({ hlc: at(2), deleted: true, body: null })
    const newer = change({ hlc: at(3), body: { id: 't1', title: 'edited offline' } })
    expect(winningChange(older, deleted)).toBe(deleted)
    expect(winningChange(deleted, older)).toBe(deleted)
    expect(winningChange(deleted, newer)).toBe(newer)
  })

  it('never brings a deleted message back, whatever its clock', () => {
    const deleted = change({ kind: 'message', hlc: at(2), deleted: true, body: null })
    const late = change({ kind: 'message', hlc: at(9), body: { id: 't1', content: 'stale device' } })
    expect(winningChange(deleted, late)).toBe(deleted)
    expect(winningChange(late, deleted)).toBe(deleted)
  })

  it('converges: any order of applying the same changes, repeated or not, ends in one state', () => {
    const anyChange = fc.record({
      kind: fc.constantFrom('thread', 'message', 'preset' as const),
      id: fc.constantFrom('x', 'y', 'z'),
      hlc: fc.tuple(fc.nat(20), fc.nat(3), fc.constantFrom('a', 'b', 'c')).map(([wallMs, counter, node]) => encodeHlc({ wallMs, counter, node })),
      deleted: fc.boolean(),
      title: fc.string({ maxLength: 3 }),
    }).map(({ title, ...rest }): SyncChange => ({ ...rest, body: rest.deleted ? null : { id: rest.id, title } }))
    fc.assert(fc.property(
      fc.array(anyChange, { maxLength: 30 }).chain(changes => fc.tuple(fc.constant(changes), fc.shuffledSubarray(changes, { minLength: changes.length }), fc.array(fc.nat(Math.max(0, changes.length - 1)), { maxLength: 10 }))),
      ([changes, shuffled, repeats]) => {
        const inOrder = mergeChanges(new Map(), changes)
        const reordered = mergeChanges(new Map(), [...shuffled, ...repeats.map(index => shuffled[index]!).filter(Boolean)])
        expect(Object.fromEntries(reordered)).toEqual(Object.fromEntries(inOrder))
      },
    ), fuzzOptions(500))
  })

  it('never sends a field that describes one device only', () => {
    expect(syncBodyOf('message', { id: 'm', onPath: 1, content: 'hi' })).toEqual({ id: 'm', content: 'hi' })
    expect(syncBodyOf('thread', { id: 't', serverJob: { id: 'j' }, title: 'T' })).toEqual({ id: 't', title: 'T' })
  })
})

describe('the push schema', () => {
  it('drops fields a client adds, such as an owner', () => {
    const parsed = syncPushSchema.parse({ changes: [{ ...change({}), ownerId: 'someone-else' }], ownerId: 'x' })
    expect(parsed).toEqual({ changes: [change({})] })
  })

  it('refuses bad shapes with a reason', () => {
    const bad = [
      { changes: [] },
      { changes: [change({ kind: 'attachment' as never })] },
      { changes: [change({ hlc: '12' })] },
      { changes: [change({ deleted: true })] },
      { changes: [change({ body: null })] },
      { changes: [change({ body: { id: 'another' } })] },
      { changes: [change({ id: '../../etc' })] },
      { changes: [change({ body: { id: 't1', content: 'x'.repeat(1024 * 1024 + 1) } })] },
      { changes: Array.from({ length: 501 }, (_, index) => change({ id: `t${index}`, body: { id: `t${index}` } })) },
    ]
    for (const body of bad) expect(syncPushSchema.safeParse(body).success, JSON.stringify(body).slice(0, 80)).toBe(false)
  })
})
