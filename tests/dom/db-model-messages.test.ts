import { describe, expect, it } from 'vitest'
import { toModelMessages } from '~/db/messages'
import type { MessageRecord } from '~/db/types'

let seq = 0
function row(fields: Partial<MessageRecord> & Pick<MessageRecord, 'role'>): MessageRecord {
  seq += 1
  return { id: `m${seq}`, threadId: 't', seq, content: '', status: 'complete', createdAt: seq, updatedAt: seq, ...fields }
}
const call = (id: string, name: string, args = '{}') => ({ id, type: 'function' as const, function: { name, arguments: args } })

describe('toModelMessages', () => {
  it('sends text, tool calls and results, fills a missing result, and leaves out an errored empty reply', () => {
    const records = [
      row({ role: 'system', content: 'Be brief.' }),
      row({ role: 'user', content: 'Weather in Lisbon and 12*7?' }),
      row({ role: 'assistant', content: '', reasoning: 'two tools', toolCalls: [call('c1', 'get_weather', '{"city":"Lisbon"}'), call('c2', 'calculate', '{"expression":"12*7"}')] }),
      row({ role: 'tool', content: '20C, sunny', toolCallId: 'c1', toolName: 'get_weather', toolStatus: 'done', toolResultFull: '20C, sunny, wind 5 km/h' }),
      // c2 never got a row (the tab was closed while it ran)
      row({ role: 'assistant', content: 'Lisbon is 20C and sunny.' }),
      row({ role: 'user', content: 'Thanks! Now Porto?' }),
      row({ role: 'assistant', content: '', status: 'error', error: { kind: 'rate-limit', message: 'Slow down', retryable: true } }),
      row({ role: 'user', content: 'Porto please' }),
      row({ role: 'assistant', content: 'Let me check', toolCalls: [call('c3', 'get_weather', '{"city":"Porto"}')] }),
      row({ role: 'tool', content: 'Cancelled: the page was closed while the tool ran.', status: 'interrupted', toolCallId: 'c3', toolName: 'get_weather', toolStatus: 'cancelled' }),
      row({ role: 'assistant', content: 'Partial answ', status: 'error', error: { kind: 'stream', message: 'cut', retryable: true } }),
    ]
    expect(toModelMessages(records)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Lisbon and 12*7?' },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'get_weather', '{"city":"Lisbon"}'), call('c2', 'calculate', '{"expression":"12*7"}')] },
      { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: '20C, sunny' },
      { role: 'tool', tool_call_id: 'c2', name: 'calculate', content: 'Cancelled: no result was recorded.' },
      { role: 'assistant', content: 'Lisbon is 20C and sunny.' },
      { role: 'user', content: 'Thanks! Now Porto?' },
      { role: 'user', content: 'Porto please' },
      { role: 'assistant', content: 'Let me check', tool_calls: [call('c3', 'get_weather', '{"city":"Porto"}')] },
      { role: 'tool', tool_call_id: 'c3', name: 'get_weather', content: 'Cancelled: the page was closed while the tool ran.' },
      { role: 'assistant', content: 'Partial answ' },
    ])
  })

  it('fills missing results at the end of the history too, answering in the calls\' order', () => {
    const records = [
      row({ role: 'user', content: 'time?' }),
      row({ role: 'assistant', toolCalls: [call('a', 'get_current_time'), call('b', 'get_current_time', '{"zone":"Asia/Tokyo"}')] }),
      row({ role: 'tool', content: 'Tokyo 09:00', toolCallId: 'b', toolName: 'get_current_time', toolStatus: 'done' }),
    ]
    expect(toModelMessages(records).slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'a', name: 'get_current_time', content: 'Cancelled: no result was recorded.' },
      { role: 'tool', tool_call_id: 'b', name: 'get_current_time', content: 'Tokyo 09:00' },
    ])
  })

  it('drops tool rows that answer no preceding call, and duplicates', () => {
    const records = [
      row({ role: 'tool', content: 'orphan', toolCallId: 'x', toolName: 'calculate' }),
      row({ role: 'user', content: 'hi' }),
      row({ role: 'assistant', toolCalls: [call('c', 'calculate')] }),
      row({ role: 'tool', content: '1', toolCallId: 'c', toolName: 'calculate' }),
      row({ role: 'tool', content: '1 again', toolCallId: 'c', toolName: 'calculate' }),
      row({ role: 'user', content: 'next' }),
      row({ role: 'tool', content: 'late', toolCallId: 'c', toolName: 'calculate' }),
    ]
    expect(toModelMessages(records)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [call('c', 'calculate')] },
      { role: 'tool', tool_call_id: 'c', name: 'calculate', content: '1' },
      { role: 'user', content: 'next' },
    ])
  })

  it('skips an assistant row with neither text nor calls, and orders rows by position', () => {
    const records = [
      row({ role: 'user', content: 'one' }),
      row({ role: 'assistant', content: '   ', status: 'stopped' }),
      row({ role: 'assistant', content: 'reply' }),
    ]
    expect(toModelMessages([...records].reverse())).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'reply' },
    ])
  })
})
