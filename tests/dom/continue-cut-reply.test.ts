import { beforeEach, describe, expect, it } from 'vitest'
import { effectScope } from 'vue'
import { addMessage, listMessages } from '~/db/messages'
import { markInterrupted } from '~/db/mark-interrupted'
import { createThread } from '~/db/threads'
import { useChat } from '~/composables/useChat'
import { CONTINUE_INSTRUCTION } from '#shared/loop/continue-reply'
import { toolSetFromArray } from '#shared/tools/tool-set'
import { createScriptedModel, textStep, type ScriptedModel } from '../unit/helpers/scripted-model'
import { useFreshDatabase } from './helpers/fresh-database'

let threadId: string

useFreshDatabase('continue-cut-reply-test')
beforeEach(async () => {
  threadId = (await createThread()).id
})

function startChat(model: ScriptedModel) {
  return effectScope().run(() => useChat(() => threadId, { createModel: () => model, getToolSet: async () => toolSetFromArray([]) }))!
}

async function settle(chat: ReturnType<typeof useChat>) {
  await expect.poll(() => chat.streaming.value, { timeout: 5000 }).toBe(false)
}

/** A reply the last page left streaming, as start-up finds it after a reload. */
async function seedInterruptedReply(text: string) {
  await addMessage({ threadId, role: 'user', content: 'Tell me a story', status: 'complete' })
  await addMessage({ threadId, role: 'assistant', content: text, status: 'streaming' })
  await markInterrupted({ skipThreadIds: [] })
}

describe('Continue on a cut reply', () => {
  it('after a reload keeps the text so far, sends it with the instruction, and appends the rest to the same reply', async () => {
    await seedInterruptedReply('Once upon a ti')
    const model = createScriptedModel([textStep(['me there ', 'was a fox.'])])
    const chat = startChat(model)
    await chat.continueLoop()
    await settle(chat)
    expect(model.requests[0]!.messages).toEqual([
      { role: 'user', content: 'Tell me a story' },
      { role: 'assistant', content: 'Once upon a ti' },
      { role: 'user', content: CONTINUE_INSTRUCTION },
    ])
    const rows = await listMessages(threadId)
    expect(rows.map(row => [row.role, row.content, row.status])).toEqual([
      ['user', 'Tell me a story', 'complete'],
      ['assistant', 'Once upon a time there was a fox.', 'complete'],
    ])
  })

  it('after Stop goes on in the same reply, which a second Stop cuts again without losing either part', async () => {
    const model = createScriptedModel([
      textStep(['one ', 'two ', 'three ', 'four ', 'five ', 'six ']),
      textStep(['seven ', 'eight ', 'nine ', 'ten ', 'eleven ', 'twelve ']),
    ], { delayMs: 30 })
    const chat = startChat(model)
    await chat.send('count')
    await expect.poll(() => chat.draft.value?.content ?? '').toContain('two')
    chat.stop()
    await settle(chat)
    const stopped = (await listMessages(threadId)).at(-1)!
    expect(stopped.status).toBe('stopped')

    await chat.continueLoop()
    // The draft shows the whole reply, the kept text first, while the rest streams.
    await expect.poll(() => chat.draft.value?.content ?? '').toContain('eight')
    expect(chat.draft.value!.content.startsWith(stopped.content)).toBe(true)
    chat.stop()
    await settle(chat)
    const rows = await listMessages(threadId)
    expect(rows).toHaveLength(2)
    expect(rows[1]).toMatchObject({ id: stopped.id, status: 'stopped' })
    expect(rows[1]!.content.startsWith(`${stopped.content}seven eight`)).toBe(true)
    expect(model.requests[1]!.messages.at(-2)).toEqual({ role: 'assistant', content: stopped.content })
  })

  it('keeps the calls of a cut step: the model goes on from their ended results in a new reply', async () => {
    await addMessage({ threadId, role: 'user', content: 'look it up', status: 'complete' })
    const call = { id: 'call_cut', type: 'function' as const, function: { name: 'lookup', arguments: '{}' } }
    await addMessage({ threadId, role: 'assistant', content: 'Looking.', status: 'streaming', toolCalls: [call] })
    await addMessage({ threadId, role: 'tool', content: '', status: 'pending', toolCallId: 'call_cut', toolName: 'lookup', toolStatus: 'running' })
    await markInterrupted({ skipThreadIds: [] })
    const model = createScriptedModel([textStep('The lookup was cut; ask again?')])
    const chat = startChat(model)
    await chat.continueLoop()
    await settle(chat)
    const rows = await listMessages(threadId)
    expect(rows.map(row => [row.role, row.status, row.toolStatus])).toEqual([
      ['user', 'complete', undefined],
      ['assistant', 'interrupted', undefined],
      ['tool', 'interrupted', 'cancelled'],
      ['assistant', 'complete', undefined],
    ])
    expect(model.requests[0]!.messages.map(message => message.role)).toEqual(['user', 'assistant', 'tool'])
    expect(model.requests[0]!.messages.some(message => message.content === CONTINUE_INSTRUCTION)).toBe(false)
  })
})
