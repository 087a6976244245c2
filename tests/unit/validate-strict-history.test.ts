import { describe, expect, it } from 'vitest'
import { validateStrictHistory } from '#shared/history/validate-strict-history'
import type { HistoryRule } from '#shared/history/validate-strict-history'
import type { ModelMessage, ToolCall } from '#shared/types/chat'

const call = (id: string, name = 'get_weather', args = '{}'): ToolCall => ({ id, type: 'function', function: { name, arguments: args } })
const asks = (...calls: ToolCall[]): ModelMessage => ({ role: 'assistant', content: null, tool_calls: calls })
const answer = (id: string): ModelMessage => ({ role: 'tool', tool_call_id: id, content: 'ok' })
const user: ModelMessage = { role: 'user', content: 'Weather?' }

const rulesOf = (messages: ModelMessage[]) => validateStrictHistory(messages).map(violation => [violation.index, violation.rule])

describe('validateStrictHistory', () => {
  it('accepts text turns, and calls each answered once, in order, right after them', () => {
    expect(validateStrictHistory([
      { role: 'system', content: 'Be brief.' }, user,
      { role: 'assistant', content: 'Checking', tool_calls: [call('a'), call('b', 'calculate', '{"expression":"1+1"}')] },
      answer('a'), answer('b'),
      { role: 'assistant', content: 'Done.' }, user,
    ])).toEqual([])
  })

  it.each<[string, ModelMessage[], [number, HistoryRule][]]>([
    ['an empty name', [user, asks(call('a', '')), answer('a')], [[1, 'tool-call-name']]],
    ['a name with a dot', [user, asks(call('a', 'functions.get_weather')), answer('a')], [[1, 'tool-call-name']]],
    ['a name of 65 characters', [user, asks(call('a', 'x'.repeat(65))), answer('a')], [[1, 'tool-call-name']]],
    ['arguments cut mid-string', [user, asks(call('a', 'get_weather', '{"city":"Pa')), answer('a')], [[1, 'tool-call-arguments']]],
    ['blank arguments', [user, asks(call('a', 'get_weather', '')), answer('a')], [[1, 'tool-call-arguments']]],
    ['an array for arguments', [user, asks(call('a', 'get_weather', '[]')), answer('a')], [[1, 'tool-call-arguments']]],
    ['a call without an id', [user, asks(call(''))], [[1, 'tool-call-id']]],
    ['an id used twice', [user, asks(call('a')), answer('a'), asks(call('a')), answer('a')], [[3, 'tool-call-duplicate-id']]],
    ['a call of another type', [user, asks({ ...call('a'), type: 'custom' } as unknown as ToolCall), answer('a')], [[1, 'tool-call-type']]],
    ['a call left unanswered', [user, asks(call('a'), call('b')), answer('a'), user], [[1, 'tool-call-unanswered']]],
    ['an answer after another message', [user, asks(call('a')), user, answer('a')], [[1, 'tool-call-unanswered'], [3, 'tool-result-orphan']]],
    ['an answer to no call', [user, answer('x')], [[1, 'tool-result-orphan']]],
    ['a second answer', [user, asks(call('a')), answer('a'), answer('a')], [[3, 'tool-result-duplicate']]],
    ['answers out of order', [user, asks(call('a'), call('b')), answer('b'), answer('a')], [[2, 'tool-result-order'], [3, 'tool-result-order']]],
    ['an answer that is not text', [user, asks(call('a')), { role: 'tool', tool_call_id: 'a', content: { ok: true } } as unknown as ModelMessage], [[2, 'tool-result-content']]],
    ['an assistant message with nothing', [user, { role: 'assistant', content: null }], [[1, 'assistant-empty']]],
    ['an empty tool_calls list', [user, { role: 'assistant', content: 'Hi', tool_calls: [] }], [[1, 'assistant-empty-tool-calls']]],
    ['an unknown role', [user, { role: 'function', content: 'x' } as unknown as ModelMessage], [[1, 'message-role']]],
  ])('reports %s', (_case, messages, expected) => {
    expect(rulesOf(messages)).toEqual(expected)
  })

  it('names the call it blames', () => {
    expect(validateStrictHistory([user, asks(call('call_7', 'get_weather', '{"ci'))])).toEqual([
      { index: 1, rule: 'tool-call-arguments', callId: 'call_7', message: 'call "call_7" has arguments that are not JSON object text' },
      { index: 1, rule: 'tool-call-unanswered', callId: 'call_7', message: 'call "call_7" has no tool message answering it' },
    ])
  })
})
