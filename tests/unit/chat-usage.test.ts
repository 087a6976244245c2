import { describe, expect, it } from 'vitest'
import type { MessageRecord } from '~/db/types'
import { chatUsage } from '~/utils/chat/catalog/chat-usage'

let seq = 0
function row(fields: Partial<MessageRecord> & Pick<MessageRecord, 'role'>): MessageRecord {
  seq += 1
  return { id: `m${seq}`, threadId: 't', seq, content: '', status: 'complete', createdAt: seq, updatedAt: seq, ...fields }
}

const priced = (name: string) => (name === 'lookup' ? { rate: 0.25, unit: 'request' as const } : undefined)

describe('a chat\'s usage', () => {
  const rows = [
    row({ role: 'user', content: 'hi' }),
    row({ role: 'assistant', model: 'a/one', usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120, cost: 0.002 } }),
    row({ role: 'tool', toolName: 'lookup', toolStatus: 'done', toolResultFull: 'x'.repeat(400), content: 'x', startedAt: 0, finishedAt: 10 }),
    row({ role: 'tool', toolName: 'calculate', toolStatus: 'done', content: '42', startedAt: 0, finishedAt: 1 }),
    row({ role: 'assistant', model: 'a/one', usage: { promptTokens: 300, completionTokens: 5 } }),
    row({ role: 'assistant', model: 'b/two', usage: { totalTokens: 1_000, cost: 0.01 } }),
    row({ role: 'tool', toolName: 'lookup', toolStatus: 'done', content: 'y', startedAt: 0, finishedAt: 10 }),
    row({ role: 'assistant', content: 'no usage reported' }),
  ]

  it('sums every reply\'s tokens (total, or prompt + completion when no total was reported) and cost', () => {
    const usage = chatUsage(rows, priced)
    expect(usage.tokens).toBe(120 + 305 + 1_000)
    expect(usage.modelCost).toBeCloseTo(0.012)
  })

  it('lists the replies newest first with their own figures', () => {
    const usage = chatUsage(rows, priced)
    expect(usage.replies.map(reply => reply.totalTokens)).toEqual([1_000, 305, 120])
    expect(usage.replies[1]).toMatchObject({ model: 'a/one', promptTokens: 300, completionTokens: 5, cost: undefined })
  })

  it('groups per model, most tokens first', () => {
    expect(chatUsage(rows, priced).models).toEqual([
      { model: 'b/two', replies: 1, totalTokens: 1_000, cost: 0.01 },
      { model: 'a/one', replies: 2, totalTokens: 425, cost: 0.002 },
    ])
  })

  it('counts each tool\'s runs and result tokens from the whole result, and prices only tools with a costing model', () => {
    const usage = chatUsage(rows, priced)
    expect(usage.tools).toEqual([
      { toolName: 'lookup', runs: 2, resultTokens: 100 + 1, cost: 0.5, pricedRuns: 2 },
      { toolName: 'calculate', runs: 1, resultTokens: 1, cost: 0, pricedRuns: 0 },
    ])
    expect(usage).toMatchObject({ toolRuns: 3, pricedToolRuns: 2, toolCost: 0.5 })
  })

  it('is the same whatever the order of the rows (pages read in any order)', () => {
    expect(chatUsage([...rows].reverse(), priced)).toEqual(chatUsage(rows, priced))
  })

  it('is all zero for a chat without usage', () => {
    expect(chatUsage([row({ role: 'user', content: 'hi' })], priced)).toMatchObject({ tokens: 0, modelCost: 0, toolRuns: 0, replies: [], models: [], tools: [] })
  })
})
