import { describe, expect, it } from 'vitest'
import type { MessageRecord } from '~/db/types'
import { chatCostTotals, toolRunCost } from '~/utils/chat/catalog/tool-run-cost'

let seq = 0
function row(fields: Partial<MessageRecord> & Pick<MessageRecord, 'role'>): MessageRecord {
  seq += 1
  return { id: `m${seq}`, threadId: 't', seq, content: '', status: 'complete', createdAt: seq, updatedAt: seq, ...fields }
}

describe('tool run cost', () => {
  it('prices a finished run by its measured seconds, result tokens or one request', () => {
    expect(toolRunCost({ status: 'done', durationMs: 2_500, fullResult: 'x' }, { rate: 0.01, unit: 'second' })).toBeCloseTo(0.025)
    expect(toolRunCost({ status: 'done', durationMs: 5, fullResult: 'a'.repeat(400) }, { rate: 0.001, unit: 'token' })).toBeCloseTo(0.1)
    expect(toolRunCost({ status: 'error', durationMs: 5 }, { rate: 0.3, unit: 'request' })).toBe(0.3)
  })

  it('prices nothing that is still running, was cancelled, or has no costing model', () => {
    expect(toolRunCost({ status: 'running', durationMs: 5 }, { rate: 0.3, unit: 'request' })).toBeUndefined()
    expect(toolRunCost({ status: 'cancelled', durationMs: 5 }, { rate: 0.3, unit: 'request' })).toBeUndefined()
    expect(toolRunCost({ status: 'done', durationMs: 5 }, undefined)).toBeUndefined()
  })

  it('totals a chat: the model\'s tokens and reported cost, and the priced tools\' estimates', () => {
    const rows = [
      row({ role: 'user', content: 'hi' }),
      row({ role: 'assistant', content: '', usage: { totalTokens: 120, cost: 0.001 } }),
      row({ role: 'tool', toolName: 'paid', toolStatus: 'done', startedAt: 0, finishedAt: 10, content: 'a' }),
      row({ role: 'tool', toolName: 'free', toolStatus: 'done', startedAt: 0, finishedAt: 10, content: 'b' }),
      row({ role: 'tool', toolName: 'paid', toolStatus: 'running', startedAt: 0 }),
      row({ role: 'assistant', content: 'done', usage: { promptTokens: 30, completionTokens: 5 } }),
    ]
    const totals = chatCostTotals(rows, name => (name === 'paid' ? { rate: 0.2, unit: 'request' } : undefined))
    expect(totals).toEqual({ tokens: 155, modelCost: 0.001, toolCost: 0.2, pricedToolRuns: 1 })
  })
})
