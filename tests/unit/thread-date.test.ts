import { describe, expect, it } from 'vitest'
import { formatThreadDate } from '~/utils/chat/message-list/thread-date'
import { formatCount } from '~/utils/chat/catalog/format-count'

describe('the chat list\'s dates', () => {
  it('reads as the browser\'s short month and day, as toLocaleDateString wrote it, for every row', () => {
    for (const timestamp of [0, Date.UTC(2026, 10, 22, 21, 0), Date.UTC(2025, 0, 1, 12), 1_750_000_000_000]) {
      expect(formatThreadDate(timestamp)).toBe(new Date(timestamp).toLocaleDateString(undefined, { month: 'short', day: 'numeric' }))
    }
    expect(formatThreadDate(Date.UTC(2026, 10, 22, 12))).toMatch(/22/)
  })

  it('follows the language the app shows, not the browser\'s, when it is given', () => {
    const timestamp = Date.UTC(2026, 2, 14, 12)
    expect(formatThreadDate(timestamp, 'de-DE')).toBe('14. März')
    expect(formatThreadDate(timestamp, 'es-ES')).toBe('14 mar')
    expect(formatThreadDate(timestamp, 'en-US')).toBe('Mar 14')
  })
})

describe('counts', () => {
  it('group thousands as the language shown does', () => {
    expect(formatCount(1234567, 'en-US')).toBe('1,234,567')
    expect(formatCount(1234567, 'de-DE')).toBe('1.234.567')
    expect(formatCount(1234.6, 'es-ES')).toBe('1235')
  })
})
