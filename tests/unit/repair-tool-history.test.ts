import { describe, expect, it } from 'vitest'
import { CUT_OFF_RESULT, MISSING_TOOL_RESULT, repairToolHistory } from '#shared/history/repair-tool-history'
import { validateStrictHistory } from '#shared/history/validate-strict-history'
import type { ModelMessage, ToolCall } from '#shared/types/chat'

const call = (id: string, name: string, args = '{}'): ToolCall => ({ id, type: 'function', function: { name, arguments: args } })
const asks = (...calls: ToolCall[]): ModelMessage => ({ role: 'assistant', content: null, tool_calls: calls })
const answer = (id: string, content: string, name = 'get_weather'): ModelMessage => ({ role: 'tool', tool_call_id: id, name, content })
const user = (content = 'Weather in Paris?'): ModelMessage => ({ role: 'user', content })

/** Every repaired history must pass the strict check, whatever the case. */
function repair(messages: ModelMessage[]): ModelMessage[] {
  const repaired = repairToolHistory(messages)
  expect(validateStrictHistory(repaired)).toEqual([])
  return repaired
}

describe('repairToolHistory', () => {
  it('leaves a valid history exactly as it was, and does not modify its input', () => {
    const history = [
      { role: 'system', content: 'Be brief.' } as ModelMessage,
      user(),
      { role: 'assistant', content: 'Checking.', tool_calls: [call('a', 'get_weather', '{"city":"Paris"}')] } as ModelMessage,
      answer('a', '18C'),
      { role: 'assistant', content: 'It is 18C.' } as ModelMessage,
    ]
    const copy = structuredClone(history)
    expect(repair(history)).toEqual(copy)
    expect(history).toEqual(copy)
  })

  it('drops tool messages that answer no call of the assistant message right before them, and second answers', () => {
    const history = [answer('x', 'orphan'), user(), asks(call('a', 'get_weather')), answer('a', '18C'), answer('a', 'again'), answer('zzz', 'stray'), user('Thanks')]
    expect(repair(history)).toEqual([user(), asks(call('a', 'get_weather')), answer('a', '18C'), user('Thanks')])
  })

  it('drops a tool message separated from its call by another message', () => {
    const history = [user(), asks(call('a', 'get_weather')), user('Hm?'), answer('a', 'late')]
    expect(repair(history)).toEqual([user(), asks(call('a', 'get_weather')), answer('a', MISSING_TOOL_RESULT), user('Hm?')])
  })

  it('puts the answers in the order of the calls', () => {
    const history = [user(), asks(call('a', 'get_weather'), call('b', 'get_weather')), answer('b', 'Rome 25C'), answer('a', 'Paris 18C')]
    expect(repair(history).slice(2)).toEqual([answer('a', 'Paris 18C'), answer('b', 'Rome 25C')])
  })

  it('drops a call that was never named, with its answer, and the assistant message it leaves empty', () => {
    const history = [user(), asks(call('a', '', '{"ci')), answer('a', 'Cancelled by the user.', ''), user('Never mind')]
    expect(repair(history)).toEqual([user(), user('Never mind')])
  })

  it('keeps the text of an assistant message whose only call was dropped', () => {
    const history = [user(), { role: 'assistant', content: 'Let me look.', tool_calls: [call('a', '')] } as ModelMessage, answer('a', 'Cancelled by the user.', '')]
    expect(repair(history)).toEqual([user(), { role: 'assistant', content: 'Let me look.' }])
  })

  it('makes a name with refused characters valid and keeps its answer, which tells the model what went wrong', () => {
    const history = [user(), asks(call('a', 'functions.get weather', '{"city":"Paris"}')), answer('a', 'Error: no tool named "functions.get weather"', 'functions.get weather')]
    expect(repair(history).slice(1)).toEqual([
      asks(call('a', 'functions_get_weather', '{"city":"Paris"}')),
      answer('a', 'Error: no tool named "functions.get weather"', 'functions_get_weather'),
    ])
    expect(repair([user(), asks(call('b', 'x'.repeat(80))), answer('b', 'Error')])[1]).toEqual(asks(call('b', 'x'.repeat(64))))
  })

  it('replays blank arguments as {}', () => {
    const history = [user('Time?'), asks(call('a', 'get_current_time', '  ')), answer('a', '09:00', 'get_current_time')]
    expect(repair(history)[1]).toEqual(asks(call('a', 'get_current_time', '{}')))
  })

  it('replays an answered call cut mid-arguments as {} with a result saying it was cut off and did not run', () => {
    const history = [
      user(),
      asks(call('a', 'get_weather', '{"city":"Paris"}'), call('b', 'get_weather', '{"city":"Ro')),
      answer('a', 'Cancelled by the user.'),
      answer('b', 'Cancelled by the user.'),
    ]
    expect(repair(history).slice(1)).toEqual([
      asks(call('a', 'get_weather', '{"city":"Paris"}'), call('b', 'get_weather', '{}')),
      answer('a', 'Cancelled by the user.'),
      answer('b', CUT_OFF_RESULT),
    ])
  })

  it('treats arguments that are JSON but not an object as cut off', () => {
    const history = [user(), asks(call('a', 'get_weather', '["Paris"]')), answer('a', 'Error: arguments must be a JSON object, got an array')]
    expect(repair(history).slice(1)).toEqual([asks(call('a', 'get_weather', '{}')), answer('a', CUT_OFF_RESULT)])
  })

  it('drops an unanswered call cut mid-arguments, since nothing told anyone it existed', () => {
    const history = [user(), { role: 'assistant', content: 'One moment', tool_calls: [call('a', 'get_weather', '{"ci')] } as ModelMessage, user('Hello?')]
    expect(repair(history)).toEqual([user(), { role: 'assistant', content: 'One moment' }, user('Hello?')])
  })

  it('answers a whole call left without a result', () => {
    const history = [user(), asks(call('a', 'get_weather', '{"city":"Paris"}')), user('Hello?')]
    expect(repair(history)).toEqual([user(), asks(call('a', 'get_weather', '{"city":"Paris"}')), answer('a', MISSING_TOOL_RESULT), user('Hello?')])
  })

  it('gives a fresh id to a call whose id is empty or already used, and its own answer follows it', () => {
    const history = [
      user(), asks(call('call_0', 'get_weather')), answer('call_0', 'first'),
      user(), asks(call('call_0', 'get_weather'), call('call_0', 'get_weather'), call('', 'get_weather')),
      answer('call_0', 'second'), answer('call_0', 'third'), answer('', 'fourth'),
    ]
    expect(repair(history).slice(4)).toEqual([
      asks(call('call_0_2', 'get_weather'), call('call_0_3', 'get_weather'), call('call_without_id', 'get_weather')),
      answer('call_0_2', 'second'), answer('call_0_3', 'third'), answer('call_without_id', 'fourth'),
    ])
  })

  it('sets the type of every call to function', () => {
    const odd = { id: 'a', type: 'tool', function: { name: 'get_weather', arguments: '{}' } } as unknown as ToolCall
    expect(repair([user(), asks(odd), answer('a', 'ok')])[1]).toEqual(asks(call('a', 'get_weather')))
  })

  it('drops assistant messages with neither text nor calls, and an empty tool_calls list', () => {
    const history = [user(), { role: 'assistant', content: '' } as ModelMessage, { role: 'assistant', content: 'Hi', tool_calls: [] } as ModelMessage, { role: 'assistant', content: null } as ModelMessage]
    expect(repair(history)).toEqual([user(), { role: 'assistant', content: 'Hi' }])
  })

  it('drops a message with a role no server knows', () => {
    expect(repair([user(), { role: 'function', content: 'x' } as unknown as ModelMessage])).toEqual([user()])
  })
})
