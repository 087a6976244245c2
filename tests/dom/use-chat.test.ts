import { beforeEach, describe, expect, it, vi } from 'vitest'
import { effectScope } from 'vue'
import { listMessages, toModelMessages } from '~/db/messages'
import { createThread } from '~/db/threads'
import { useChat } from '~/composables/useChat'
import type { UseChatOptions } from '~/composables/chat-run-types'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ExecutableTool } from '#shared/tools/tool-types'
import { ProviderError } from '#shared/errors/provider-error'
import { createScriptedModel, textStep, toolCallStep, type ScriptedModel } from '../unit/helpers/scripted-model'
import { useFreshDatabase } from './helpers/fresh-database'

const calculate: ExecutableTool = {
  definition: {
    type: 'function',
    function: { name: 'calculate', description: 'Evaluate', parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] } },
  },
  handler: ({ expression }: { expression: string }) => (expression === '12*7' ? '84' : '?'),
}

let threadId: string

useFreshDatabase('use-chat-test')
beforeEach(async () => {
  threadId = (await createThread()).id
})

function startChat(model: ScriptedModel, tools: ExecutableTool[] = [calculate], extra: Partial<UseChatOptions> = {}) {
  const scope = effectScope()
  const chat = scope.run(() => useChat(() => threadId, {
    createModel: () => model,
    getToolSet: async () => toolSetFromArray(tools),
    ...extra,
  }))!
  return { chat, scope }
}

/** Until the reply has ended: `streaming` turns false only after the recorder's last write has landed. */
async function settle(chat: ReturnType<typeof useChat>) {
  await vi.waitFor(() => expect(chat.streaming.value).toBe(false), { timeout: 5_000, interval: 5 })
}

describe('useChat', () => {
  it('stores the user message before the request goes out', async () => {
    let storedWhenAsked: string[] = []
    const model = createScriptedModel([
      async function* (request) {
        // read when the request goes out, before the reply's first event
        storedWhenAsked = (await listMessages(threadId)).map(row => `${row.role}:${row.content}`)
        expect(request.messages).toEqual([{ role: 'user', content: 'hello' }])
        yield* textStep('hi there')
      },
    ])
    const { chat } = startChat(model)
    await chat.send('hello')
    await settle(chat)
    expect(storedWhenAsked[0]).toBe('user:hello')
    const rows = await listMessages(threadId)
    expect(rows.map(row => [row.role, row.content, row.status])).toEqual([
      ['user', 'hello', 'complete'],
      ['assistant', 'hi there', 'complete'],
    ])
  })

  it('sends the whole tool history to the model on the next step and on the next turn', async () => {
    const model = createScriptedModel([
      toolCallStep([{ name: 'calculate', args: { expression: '12*7' }, id: 'call_a' }]),
      textStep('12*7 = 84'),
      textStep('you are welcome'),
    ])
    const { chat } = startChat(model)
    await chat.send('what is 12*7')
    await settle(chat)
    const expectedToolTurn = [
      { role: 'user', content: 'what is 12*7' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'calculate', arguments: '{"expression":"12*7"}' } }] },
      { role: 'tool', tool_call_id: 'call_a', name: 'calculate', content: '84' },
    ]
    expect(model.requests[1]!.messages).toEqual(expectedToolTurn)
    expect(model.requests[1]!.tools?.map(tool => tool.function.name)).toEqual(['calculate'])
    expect(model.requests[1]!.toolChoice).toBe('auto')

    await chat.send('thanks')
    await settle(chat)
    // As after a reload: the history is rebuilt from Dexie, tool rows included.
    expect(model.requests[2]!.messages).toEqual([
      ...expectedToolTurn,
      { role: 'assistant', content: '12*7 = 84' },
      { role: 'user', content: 'thanks' },
    ])
    const rows = await listMessages(threadId)
    const toolRow = rows.find(row => row.role === 'tool')!
    expect(toolRow).toMatchObject({ toolName: 'calculate', toolStatus: 'done', toolResultFull: '84', toolArguments: '{"expression":"12*7"}' })
    expect(toModelMessages(rows)).toEqual(model.requests[2]!.messages.concat([{ role: 'assistant', content: 'you are welcome' }]))
  })

  it('omits tools and tool_choice when no tool is enabled', async () => {
    const model = createScriptedModel([textStep('plain')])
    const { chat } = startChat(model, [])
    await chat.send('hi')
    await settle(chat)
    expect(model.requests[0]).not.toHaveProperty('tools')
    expect(model.requests[0]).not.toHaveProperty('toolChoice')
  })

  it('Stop keeps the partial reply and marks it stopped', async () => {
    const model = createScriptedModel([textStep(['one ', 'two ', 'three ', 'four ', 'five '])], { delayMs: 30 })
    const { chat } = startChat(model)
    await chat.send('count')
    await vi.waitFor(() => expect(chat.draft.value?.content ?? '').toContain('two'), { interval: 5 })
    chat.stop()
    await settle(chat)
    const assistant = (await listMessages(threadId)).find(row => row.role === 'assistant')!
    expect(assistant.status).toBe('stopped')
    expect(assistant.content).toContain('one two')
    expect(assistant.content).not.toContain('five')
  })

  it('keeps a provider error on the reply with a retryable message, and Retry answers again', async () => {
    const model = createScriptedModel([
      () => { throw new ProviderError('Rate limited by the provider. Try again in 7 s.', { kind: 'rate-limit', status: 429, retryAfterMs: 7000 }) },
      textStep('second time lucky'),
    ])
    const { chat } = startChat(model)
    await chat.send('hello')
    await settle(chat)
    let rows = await listMessages(threadId)
    expect(rows.at(-1)).toMatchObject({ role: 'assistant', status: 'error', error: { kind: 'rate-limit', retryable: true, retryAfterMs: 7000 } })
    expect(rows.at(-1)!.error!.message).toContain('Rate limited')

    await chat.retry()
    await settle(chat)
    rows = await listMessages(threadId)
    expect(rows.map(row => [row.role, row.content])).toEqual([['user', 'hello'], ['assistant', 'second time lucky']])
    expect(model.requests[1]!.messages).toEqual([{ role: 'user', content: 'hello' }])
  })

  it('ends at the step cap with a notice, and Continue goes on from the stored history', async () => {
    const loop = () => toolCallStep([{ name: 'calculate', args: { expression: '12*7' } }])
    const model = createScriptedModel([loop(), loop(), textStep('done now')])
    const { chat } = startChat(model, [calculate], { maxSteps: 2 })
    await chat.send('loop')
    await settle(chat)
    let rows = await listMessages(threadId)
    const capped = rows.filter(row => row.role === 'assistant').at(-1)!
    expect(capped.notice?.kind).toBe('step-cap')
    await chat.continueLoop()
    await settle(chat)
    rows = await listMessages(threadId)
    expect(rows.at(-1)).toMatchObject({ role: 'assistant', content: 'done now', status: 'complete' })
    expect(model.requests[2]!.messages.filter(message => message.role === 'tool')).toHaveLength(2)
  })

  it('cuts a huge tool result for the model with a note, and keeps it whole in Dexie', async () => {
    const huge: ExecutableTool = {
      definition: { type: 'function', function: { name: 'dump', parameters: { type: 'object', properties: {} } } },
      handler: () => 'x'.repeat(40_000),
    }
    const model = createScriptedModel([toolCallStep([{ name: 'dump', id: 'call_dump' }]), textStep('that was a lot')])
    const { chat } = startChat(model, [huge])
    await chat.send('dump it')
    await settle(chat)
    const sent = model.requests[1]!.messages.find(message => message.role === 'tool')!
    expect(sent.content.length).toBeLessThan(33_000)
    expect(sent.content).toContain('[Result truncated: showing the first 32768 of 40000 characters.]')
    const row = (await listMessages(threadId)).find(record => record.role === 'tool')!
    expect(row.toolResultFull).toHaveLength(40_000)
    expect(row.truncated).toBe(true)
  })

  it('Stop during a tool run cancels it, and the next turn sends a valid history with a cancelled result', async () => {
    let aborted = false
    const slow: ExecutableTool = {
      definition: { type: 'function', function: { name: 'slow', parameters: { type: 'object', properties: {} } } },
      timeoutMs: 60_000,
      handler: (_args, context) => new Promise((_resolve, reject) => {
        context.signal.addEventListener('abort', () => {
          aborted = true
          reject(new Error('aborted'))
        })
      }),
    }
    const model = createScriptedModel([toolCallStep([{ name: 'slow', id: 'call_slow' }]), textStep('ok, moving on')])
    const { chat } = startChat(model, [slow])
    await chat.send('be slow')
    await vi.waitFor(async () => expect((await listMessages(threadId)).some(row => row.toolStatus === 'running')).toBe(true), { interval: 5 })
    chat.stop()
    await settle(chat)
    expect(aborted).toBe(true)
    const toolRow = (await listMessages(threadId)).find(row => row.role === 'tool')!
    expect(toolRow.toolStatus).toBe('cancelled')

    await chat.send('next')
    await settle(chat)
    expect(model.requests[1]!.messages).toEqual([
      { role: 'user', content: 'be slow' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_slow', type: 'function', function: { name: 'slow', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_slow', name: 'slow', content: 'Cancelled by the user.' },
      { role: 'user', content: 'next' },
    ])
  })

  it('does not send empty text', async () => {
    const model = createScriptedModel([])
    const { chat } = startChat(model)
    expect(await chat.send('   ')).toBe(false)
    expect(await listMessages(threadId)).toEqual([])
  })
})
