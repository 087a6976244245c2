import { beforeEach, describe, expect, it, vi } from 'vitest'
import { effectScope } from 'vue'
import { listMessages } from '~/db/messages'
import { createThread } from '~/db/threads'
import { useChat } from '~/composables/useChat'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import { createScriptedModel, textStep } from '../unit/helpers/scripted-model'
import { useFreshDatabase } from './helpers/fresh-database'

let threadId: string

useFreshDatabase('use-chat-availability-test')
beforeEach(async () => {
  threadId = (await createThread()).id
})

describe('useChat while availability checks run', () => {
  it('Stop cancels a send still waiting for a check: no request goes out and no reply row is left', async () => {
    const registry = createToolRegistry()
    let checkStarted!: () => void
    const started = new Promise<void>(resolve => (checkStarted = resolve))
    registry.registerTool({ type: 'function', function: { name: 'slow_check' }, available: () => {
      checkStarted()
      return new Promise<boolean>(() => {})
    } }, () => 'ok')
    const model = createScriptedModel([() => textStep('should not be asked')])
    const scope = effectScope()
    const chat = scope.run(() => useChat(() => threadId, { createModel: () => model, getToolSet: context => registry.getToolSet(context) }))!

    await chat.send('hello')
    await started
    chat.stop()
    await vi.waitFor(() => expect(chat.streaming.value).toBe(false))

    expect(chat.lastError.value).toBeNull()
    expect(model.requests).toHaveLength(0)
    expect((await listMessages(threadId)).map(row => row.role)).toEqual(['user'])
    scope.stop()
  })
})
