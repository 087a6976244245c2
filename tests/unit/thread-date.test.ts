import { describe, expect, it } from 'vitest'
import { formatThreadDate } from '~/utils/chat/message-list/thread-date'

describe('the chat list\'s dates', () => {
  it('reads as the browser\'s short month and day, as toLocaleDateString wrote it, for every row', () => {
    for (const timestamp of [0, Date.UTC(2026, 10, 22, 21, 0), Date.UTC(2025, 0, 1, 12), 1_750_000_000_000]) {
      expect(formatThreadDate(timestamp)).toBe(new Date(timestamp).toLocaleDateString(undefined, { month: 'short', day: 'numeric' }))
    }
    expect(formatThreadDate(Date.UTC(2026, 10, 22, 12))).toMatch(/22/)
  })
})
