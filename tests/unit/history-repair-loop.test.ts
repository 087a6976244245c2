import { describe, expect, it } from 'vitest'
import { CUT_OFF_RESULT } from '#shared/history/repair-tool-history'
import { validateStrictHistory } from '#shared/history/validate-strict-history'
import { runChatLoop } from '#shared/loop/run-chat-loop'
import type { StreamEvent } from '#shared/stream/stream-event'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ExecutableTool } from '#shared/tools/tool-types'
import { createScriptedModel, textStep } from './helpers/scripted-model'

const getWeather: ExecutableTool = {
  definition: { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  handler: ({ city }: { city: string }) => `${city}: 18C`,
}

/** The model ran out of output tokens in the middle of the call's arguments; the stream itself ended normally. */
const cutByLength: StreamEvent[] = [
  { type: 'tool-call-delta', index: 0, id: 'call_a', name: 'get_weather', argumentsDelta: '{"city":"Lis' },
  { type: 'finish', reason: 'length' },
  { type: 'done', sawDoneSentinel: true },
]

describe('the loop replays a call cut by the token limit', () => {
  it('as a call that did not run, in a history a strict server accepts', async () => {
    const model = createScriptedModel([cutByLength, textStep('Sorry, let me try that again.')])
    const result = await runChatLoop({ model, messages: [{ role: 'user', content: 'Weather in Lisbon?' }], tools: toolSetFromArray([getWeather]), threadId: 't' })
    expect(result.finishReason).toBe('stop')
    const second = model.requests[1]!.messages
    expect(validateStrictHistory(second)).toEqual([])
    expect(second.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_a', name: 'get_weather', content: CUT_OFF_RESULT },
    ])
  })
})
