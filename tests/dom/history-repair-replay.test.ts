import { beforeEach, describe, expect, it, vi } from 'vitest'
import { effectScope } from 'vue'
import { useChat } from '~/composables/useChat'
import { addMessage, listMessages, toModelMessages } from '~/db/messages'
import { createThread } from '~/db/threads'
import { toolCardsForMessage } from '~/utils/chat/message-list/tool-card'
import { ProviderError } from '#shared/errors/provider-error'
import { CUT_OFF_RESULT } from '#shared/history/repair-tool-history'
import { validateStrictHistory } from '#shared/history/validate-strict-history'
import type { StreamEvent } from '#shared/stream/stream-event'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ExecutableTool } from '#shared/tools/tool-types'
import { createScriptedModel, textStep } from '../unit/helpers/scripted-model'
import { useFreshDatabase } from './helpers/fresh-database'

const getWeather: ExecutableTool = {
  definition: { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  handler: ({ city }: { city: string }) => `${city}: 18C`,
}

/** A step whose connection fails while the second call's arguments, and a third call before its name, stream. */
const cutStep: StreamEvent[] = [
  { type: 'text-delta', text: 'Let me check both.' },
  { type: 'tool-call-delta', index: 0, id: 'call_a', name: 'get_weather', argumentsDelta: '{"city":"Paris"}' },
  { type: 'tool-call-delta', index: 1, id: 'call_b', name: 'get_weather', argumentsDelta: '{"city":"Ro' },
  { type: 'tool-call-delta', index: 2, id: 'call_c', argumentsDelta: '{"ci' },
  { type: 'error', error: new ProviderError('The connection to the provider was lost.', { kind: 'stream' }) },
]

let threadId: string
useFreshDatabase('history-repair-replay-test')
beforeEach(async () => {
  threadId = (await createThread()).id
})

/** Until the reply has ended: `streaming` turns false only after the recorder's last write has landed. */
async function settle(chat: ReturnType<typeof useChat>) {
  await vi.waitFor(() => expect(chat.streaming.value).toBe(false), { timeout: 5_000, interval: 5 })
}

describe('a chat whose reply was cut mid-call', () => {
  it('replays as a history a strict server accepts, while its cards say "cut off"', async () => {
    const model = createScriptedModel([cutStep, textStep('Paris is 18C; Rome I will check now.')])
    const scope = effectScope()
    const chat = scope.run(() => useChat(() => threadId, { createModel: () => model, getToolSet: async () => toolSetFromArray([getWeather]) }))!
    await chat.send('Weather in Paris and Rome?')
    await settle(chat)
    await chat.send('Try again')
    await settle(chat)
    scope.stop()

    const replayed = model.requests[1]!.messages
    expect(validateStrictHistory(replayed)).toEqual([])
    expect(replayed).toEqual([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: 'Let me check both.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', name: 'get_weather', content: 'Not run: the reply was interrupted by an error.' },
      { role: 'tool', tool_call_id: 'call_b', name: 'get_weather', content: CUT_OFF_RESULT },
      { role: 'user', content: 'Try again' },
    ])

    // The rows keep what the model wrote; only the cards of unfinished calls say "cut off".
    const rows = await listMessages(threadId)
    const assistant = rows.find(row => row.role === 'assistant')!
    expect(assistant.toolCalls?.map(call => call.function.arguments)).toEqual(['{"city":"Paris"}', '{"city":"Ro', '{"ci'])
    const cards = toolCardsForMessage(assistant, rows.filter(row => row.role === 'tool'))
    expect(cards.map(card => [card.callId, card.status, card.cutOff ?? false])).toEqual([
      ['call_a', 'cancelled', false],
      ['call_b', 'cancelled', true],
      ['call_c', 'cancelled', true],
    ])
    expect(cards[1]!.error).toBe(CUT_OFF_RESULT)
    expect(cards[2]!.label).toBe('Unnamed tool')
    expect(validateStrictHistory(toModelMessages(rows))).toEqual([])
  })

  it('replays a chat stored by an older version, cut call and all, as a valid history', async () => {
    await addMessage({ threadId, role: 'user', content: 'Time in Tokyo?', status: 'complete' })
    await addMessage({
      threadId, role: 'assistant', content: '', status: 'stopped',
      toolCalls: [{ id: 'call_0', type: 'function', function: { name: '', arguments: '{"zo' } }],
    })
    await addMessage({ threadId, role: 'tool', content: 'Cancelled by the user.', status: 'complete', toolCallId: 'call_0', toolName: '', toolArguments: '{"zo', toolStatus: 'cancelled' })
    await addMessage({ threadId, role: 'user', content: 'Hello?', status: 'complete' })

    const history = toModelMessages(await listMessages(threadId))
    expect(validateStrictHistory(history)).toEqual([])
    expect(history).toEqual([{ role: 'user', content: 'Time in Tokyo?' }, { role: 'user', content: 'Hello?' }])
  })
})
