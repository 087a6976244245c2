import { describe, expect, it } from 'vitest'
import type { MessageRecord } from '~/db/types'
import { buildShareSnapshot, SHARED_IMAGES_BUDGET_BYTES } from '~/utils/chat/share/build-share-snapshot'
import { shareSnapshotSchema } from '#shared/share/share-snapshot'

let seq = 0
function row(patch: Partial<MessageRecord>): MessageRecord {
  seq += 1
  return { id: `m${seq}`, threadId: 't1', seq, role: 'user', content: '', status: 'complete', createdAt: seq, updatedAt: seq, ...patch }
}

describe('a shared chat\'s snapshot', () => {
  it('keeps the branch with its tool cards and results, every state finished, and passes the server\'s schema', () => {
    const rows = [
      row({ role: 'user', content: 'Weather in Paris?' }),
      row({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }, { id: 'c2', type: 'function', function: { name: 'ask_me', arguments: '{}' } }] }),
      row({ role: 'tool', toolCallId: 'c1', toolName: 'get_weather', toolArguments: '{"city":"Paris"}', toolStatus: 'done', content: '18 °C', startedAt: 1, finishedAt: 5 }),
      row({ role: 'tool', toolCallId: 'c2', toolName: 'ask_me', toolStatus: 'awaiting-approval', content: '' }),
      row({ role: 'assistant', content: 'It is **18 °C**.', status: 'streaming', mcpApp: { toolName: 'map', serverName: 'maps', uri: 'ui://map', html: '<script>alert(1)</script>', csp: { connectDomains: [], resourceDomains: [] } } }),
    ]
    const snapshot = buildShareSnapshot({ title: 'Paris', rows, takenAt: 99 })
    expect(shareSnapshotSchema.parse(snapshot)).toEqual(snapshot)
    expect(snapshot.messages.map(each => each.status)).toEqual(['complete', 'complete', 'complete', 'complete', 'interrupted'])
    expect(snapshot.messages[2]).toMatchObject({ toolName: 'get_weather', toolStatus: 'done', content: '18 °C' })
    expect(snapshot.messages[3]).toMatchObject({ toolStatus: 'cancelled', error: { kind: 'not-finished' } })
    // an MCP App is named, never carried: a shared view runs no code
    expect(snapshot.messages[4]!.mcpAppName).toBe('maps · map')
    expect(JSON.stringify(snapshot)).not.toContain('<script>')
    expect(JSON.stringify(snapshot)).not.toContain('threadId')
  })

  it('carries images inline within the budget and names the rest', () => {
    const big = 'A'.repeat(SHARED_IMAGES_BUDGET_BYTES - 2)
    const rows = [row({ role: 'user', content: 'Look', attachments: [
      { id: 'a1', kind: 'image', name: 'cat.png', mime: 'image/png', size: 10 },
      { id: 'a2', kind: 'image', name: 'dog.png', mime: 'image/png', size: 10 },
      { id: 'a3', kind: 'document', name: 'notes.pdf', mime: 'application/pdf', size: 10 },
    ] })]
    const images = new Map([
      ['a1', { attachment: { id: 'a1', kind: 'image' as const, name: 'cat.png', mime: 'image/png' }, base64: big }],
      ['a2', { attachment: { id: 'a2', kind: 'image' as const, name: 'dog.png', mime: 'image/png' }, base64: 'QUJD' }],
    ])
    const [message] = buildShareSnapshot({ title: 'Pets', rows, images, takenAt: 1 }).messages
    expect(message!.images?.map(each => each.name)).toEqual(['cat.png'])
    expect(message!.files).toEqual(['dog.png', 'notes.pdf'])
  })
})

describe('the server\'s check of a snapshot', () => {
  const valid = { version: 1, title: 'x', takenAt: 1, messages: [{ id: 'a', role: 'user', content: 'hi', status: 'complete', createdAt: 1 }] }

  it('refuses unknown fields, running states, script in image data and empty chats', () => {
    expect(shareSnapshotSchema.safeParse(valid).success).toBe(true)
    const bad = [
      { ...valid, owner: 'me' },
      { ...valid, messages: [] },
      { ...valid, messages: [{ ...valid.messages[0], status: 'streaming' }] },
      { ...valid, messages: [{ ...valid.messages[0], mcpApp: { html: '<script>' } }] },
      { ...valid, messages: [{ ...valid.messages[0], images: [{ name: 'x', mime: 'image/svg+xml', data: 'QUJD' }] }] },
      { ...valid, messages: [{ ...valid.messages[0], images: [{ name: 'x', mime: 'image/png', data: '"><script>' }] }] },
      { ...valid, version: 2 },
    ]
    for (const snapshot of bad) expect(shareSnapshotSchema.safeParse(snapshot).success, JSON.stringify(snapshot)).toBe(false)
  })
})
