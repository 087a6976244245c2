// Row and turn objects stay the same across reads of a chat's window, so paging older rows in or a change to one
// row re-renders only the turns whose data changed.
import { describe, expect, it } from 'vitest'
import type { MessageRecord } from '~/db/types'
import { createRowReuse, sameRow } from '~/utils/chat/message-list/stable-rows'
import { groupMessageTurns, reuseTurns } from '~/utils/chat/message-list/message-turns'
import { longChat } from '../e2e/support/seed-chat'

/** What Dexie gives on each read: fresh objects with the same data (structured clones). */
const read = (rows: MessageRecord[]) => rows.map(row => structuredClone(row))

describe('createRowReuse', () => {
  const chat = longChat('t-stable', 400)

  it('keeps the objects of unchanged rows when a page of older rows is read in', () => {
    const reuse = createRowReuse()
    const newest = reuse(read(chat.messages.slice(300)))
    const paged = reuse(read(chat.messages.slice(200)))
    expect(paged).toHaveLength(200)
    // The 100 rows that were there keep their objects; the 100 older ones are new.
    expect(paged.slice(100).every((row, index) => row === newest[index])).toBe(true)
    expect(paged.slice(0, 100).some(row => newest.includes(row))).toBe(false)
  })

  it('hands a changed row as its new object, with the change, and keeps the others', () => {
    const reuse = createRowReuse()
    const first = reuse(read(chat.messages.slice(390)))
    const changed = read(chat.messages.slice(390))
    changed[3] = { ...changed[3]!, content: `${changed[3]!.content} (edited)` }
    changed[5] = { ...changed[5]!, toolCalls: [{ id: 'call_x', type: 'function', function: { name: 'calculate', arguments: '{"expression":"2"}' } }] }
    const second = reuse(changed)
    expect(second[3]).not.toBe(first[3])
    expect(second[3]!.content).toMatch(/\(edited\)$/)
    expect(second[5]!.toolCalls![0]!.id).toBe('call_x')
    expect(second.filter((row, index) => row === first[index])).toHaveLength(8)
  })

  it('sees a field added or removed as a change', () => {
    const row = chat.messages[1]!
    expect(sameRow(row, structuredClone(row))).toBe(true)
    expect(sameRow(row, { ...row, error: { kind: 'network', message: 'offline', retryable: true } })).toBe(false)
    const { toolCalls: _dropped, ...withoutCalls } = row
    expect(sameRow(row, withoutCalls as MessageRecord)).toBe(false)
  })
})

describe('reuseTurns', () => {
  const chat = longChat('t-turns', 200)

  it('keeps a turn object while its message and tool rows are the same objects', () => {
    const reuse = createRowReuse()
    const before = groupMessageTurns(reuse(read(chat.messages.slice(100))))
    const after = reuseTurns(before, groupMessageTurns(reuse(read(chat.messages))))
    const kept = after.filter(turn => before.includes(turn))
    expect(kept).toHaveLength(before.length)
    expect(after.at(-1)).toBe(before.at(-1))
  })

  it('gives a new turn when a tool row of it changed (a tool finished)', () => {
    const reuse = createRowReuse()
    const rows = read(chat.messages.slice(0, 8))
    rows[2] = { ...rows[2]!, toolStatus: 'running' }
    const before = groupMessageTurns(reuse(rows))
    const after = reuseTurns(before, groupMessageTurns(reuse(read(chat.messages.slice(0, 8)))))
    const callTurn = after.findIndex(turn => turn.toolRows.length > 0)
    expect(after[callTurn]).not.toBe(before[callTurn])
    expect(after[callTurn]!.toolRows[0]!.toolStatus).toBe('done')
    expect(after.filter((turn, index) => turn === before[index])).toHaveLength(after.length - 1)
  })
})
