import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ThreadRecord } from '~/db/types'
import { groupThreadsByDate } from '~/utils/chat/message-list/thread-groups'

// Local time: the groups follow the user's calendar, not UTC.
const previousTimeZone = process.env.TZ
beforeAll(() => { process.env.TZ = 'America/New_York' })
afterAll(() => { process.env.TZ = previousTimeZone })

const at = (iso: string) => new Date(iso).getTime()
const thread = (id: string, updatedAt: number, pinned?: number): ThreadRecord => ({ id, title: id, createdAt: 0, updatedAt, ...(pinned ? { pinned } : {}) })
const summary = (threads: ThreadRecord[], now: Date) => groupThreadsByDate(threads, now).map(group => [group.label, group.threads.map(item => item.id)])

describe('the chat list\'s date groups', () => {
  it('puts pinned chats first, then today, yesterday, the previous 7 and 30 days, then months', () => {
    const now = new Date('2026-11-26T15:00:00-05:00')
    const threads = [
      thread('pinned-old', at('2025-03-01T12:00:00-05:00'), 5),
      thread('today', at('2026-11-26T00:00:00-05:00')),
      thread('yesterday-late', at('2026-11-25T23:59:59-05:00')),
      thread('yesterday-early', at('2026-11-25T00:00:00-05:00')),
      thread('week', at('2026-11-19T00:00:00-05:00')),
      thread('month', at('2026-10-27T10:00:00-04:00')),
      thread('october', at('2026-10-26T23:59:00-04:00')),
      thread('last-year', at('2025-12-31T10:00:00-05:00')),
    ]
    expect(summary(threads, now)).toEqual([
      ['Pinned', ['pinned-old']],
      ['Today', ['today']],
      ['Yesterday', ['yesterday-late', 'yesterday-early']],
      ['Previous 7 days', ['week']],
      ['Previous 30 days', ['month']],
      ['October', ['october']],
      ['December 2025', ['last-year']],
    ])
  })

  it('names the months in the language shown, keeping the fixed groups\' keys for the catalog', () => {
    const now = new Date('2026-11-26T15:00:00-05:00')
    const groups = groupThreadsByDate([thread('today', at('2026-11-26T09:00:00-05:00')), thread('october', at('2026-10-20T12:00:00-04:00')), thread('old', at('2025-03-03T12:00:00-05:00'))], now, 'de-DE')
    expect(groups.map(group => [group.key, group.label])).toEqual([['today', 'Today'], ['2026-10', 'Oktober'], ['2025-03', 'März 2025']])
    expect(groupThreadsByDate([thread('old', at('2025-03-03T12:00:00-05:00'))], now, 'es-ES')[0]!.label).toBe('marzo de 2025')
  })

  it('splits at local midnight, not at UTC midnight', () => {
    // 23:30 in New York is already the next day in UTC.
    const now = new Date('2026-11-26T00:30:00-05:00')
    const threads = [thread('after-midnight', at('2026-11-26T00:10:00-05:00')), thread('before-midnight', at('2026-11-25T23:30:00-05:00'))]
    expect(summary(threads, now)).toEqual([['Today', ['after-midnight']], ['Yesterday', ['before-midnight']]])
  })

  it('counts calendar days across a daylight saving change (a 25-hour day)', () => {
    // Clocks went back on 2026-11-01 in New York.
    const now = new Date('2026-11-02T00:30:00-05:00')
    const threads = [thread('saturday', at('2026-10-31T12:00:00-04:00')), thread('sunday', at('2026-11-01T00:30:00-04:00'))]
    expect(summary(threads, now)).toEqual([['Yesterday', ['sunday']], ['Previous 7 days', ['saturday']]])
  })

  it('counts a date in the future (another device\'s clock) as today, and leaves out empty groups', () => {
    const now = new Date('2026-11-26T12:00:00-05:00')
    expect(summary([thread('ahead', now.getTime() + 86_400_000)], now)).toEqual([['Today', ['ahead']]])
    expect(groupThreadsByDate([], now)).toEqual([])
  })

  it('keeps the order the chats come in within a group', () => {
    const now = new Date('2026-11-26T12:00:00-05:00')
    const threads = [thread('b', now.getTime() - 1000), thread('a', now.getTime() - 2000)]
    expect(groupThreadsByDate(threads, now)[0]!.threads.map(item => item.id)).toEqual(['b', 'a'])
  })
})
