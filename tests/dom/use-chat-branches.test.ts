import { beforeEach, describe, expect, it, vi } from 'vitest'
import { effectScope } from 'vue'
import { listAllMessages, listMessages } from '~/db/messages'
import { listSiblings, switchBranch } from '~/db/message-branches'
import { createThread } from '~/db/threads'
import { useChat } from '~/composables/useChat'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ExecutableTool } from '#shared/tools/tool-types'
import { createScriptedModel, textStep, toolCallStep, type ScriptedModel } from '../unit/helpers/scripted-model'
import { useFreshDatabase } from './helpers/fresh-database'

const calculate: ExecutableTool = {
  definition: { type: 'function', function: { name: 'calculate', description: 'Evaluate', parameters: { type: 'object', properties: { expression: { type: 'string' } } } } },
  handler: () => '84',
}

let threadId: string
useFreshDatabase('use-chat-branches-test')
beforeEach(async () => {
  threadId = (await createThread()).id
})

function startChat(model: ScriptedModel) {
  const scope = effectScope()
  return scope.run(() => useChat(() => threadId, { createModel: () => model, getToolSet: async () => toolSetFromArray([calculate]) }))!
}

/** The reply is over: the run ends (streaming false) only after the recorder's last write landed. */
async function settle(chat: ReturnType<typeof useChat>) {
  await vi.waitFor(() => expect(chat.streaming.value).toBe(false), { timeout: 5000 })
}

const texts = (rows: { role: string, content: string }[]) => rows.map(row => `${row.role}:${row.content}`)

describe('useChat on the message tree', () => {
  it('edit sends the edited message after the path above it only, and keeps the old branch', async () => {
    const model = createScriptedModel([textStep('four'), textStep('six'), textStep('eight')])
    const chat = startChat(model)
    await chat.send('2+2?')
    await settle(chat)
    await chat.send('3+3?')
    await settle(chat)
    const question = (await listMessages(threadId)).find(row => row.content === '3+3?')!
    expect(await chat.edit(question.id, '4+4?')).toBe(true)
    await settle(chat)
    expect(model.requests[2]!.messages).toEqual([
      { role: 'user', content: '2+2?' },
      { role: 'assistant', content: 'four' },
      { role: 'user', content: '4+4?' },
    ])
    expect(texts(await listMessages(threadId))).toEqual(['user:2+2?', 'assistant:four', 'user:4+4?', 'assistant:eight'])
    expect(await listAllMessages(threadId)).toHaveLength(6)
    expect((await listSiblings(question.id)).map(row => row.content)).toEqual(['3+3?', '4+4?'])
  })

  it('regenerate asks again from the user message a multi-step reply answers, and the next send reads the new reply', async () => {
    const model = createScriptedModel([
      toolCallStep([{ name: 'calculate', args: { expression: '12*7' }, id: 'call_1' }]),
      textStep('It is 84.'),
      textStep('Eighty-four.'),
      textStep('Thanks noted.'),
    ])
    const chat = startChat(model)
    await chat.send('what is 12*7')
    await settle(chat)
    const finalRow = (await listMessages(threadId)).at(-1)!
    expect(finalRow.content).toBe('It is 84.')
    expect(await chat.regenerate(finalRow.id)).toBe(true)
    await settle(chat)
    expect(model.requests[2]!.messages).toEqual([{ role: 'user', content: 'what is 12*7' }])
    expect(texts(await listMessages(threadId))).toEqual(['user:what is 12*7', 'assistant:Eighty-four.'])
    // The old reply (tool call, result, answer) is one branch away, under the same question.
    const regenerated = (await listMessages(threadId)).at(-1)!
    expect(await listSiblings(regenerated.id)).toHaveLength(2)
    await chat.send('thanks')
    await settle(chat)
    expect(model.requests[3]!.messages).toEqual([
      { role: 'user', content: 'what is 12*7' },
      { role: 'assistant', content: 'Eighty-four.' },
      { role: 'user', content: 'thanks' },
    ])
    const [oldFirst] = await listSiblings(regenerated.id)
    await switchBranch(oldFirst!.id)
    expect(texts(await listMessages(threadId))).toEqual(['user:what is 12*7', 'assistant:', 'tool:84', 'assistant:It is 84.'])
  })

  it('does nothing while a reply is being written', async () => {
    let release!: () => void
    const held = new Promise<void>(resolve => (release = resolve))
    const model = createScriptedModel([textStep('first'), async function* () {
      await held
      yield* textStep('second')
    }])
    const chat = startChat(model)
    await chat.send('one')
    await settle(chat)
    const [question, reply] = await listMessages(threadId)
    await chat.send('two')
    expect(await chat.edit(question!.id, 'changed')).toBe(false)
    expect(await chat.regenerate(reply!.id)).toBe(false)
    release()
    await settle(chat)
    expect(texts(await listMessages(threadId))).toEqual(['user:one', 'assistant:first', 'user:two', 'assistant:second'])
  })
})
