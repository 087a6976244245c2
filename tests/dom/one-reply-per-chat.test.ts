import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { effectScope } from 'vue'
import { listMessages } from '~/db/messages'
import { createThread } from '~/db/threads'
import { setServerJob } from '~/db/server-jobs'
import { useChat } from '~/composables/useChat'
import { toolSetFromArray } from '#shared/tools/tool-set'
import { createScriptedModel, textStep, type ScriptedModel } from '../unit/helpers/scripted-model'
import { useFreshDatabase } from './helpers/fresh-database'
import { createFakeLockManager } from './helpers/fake-lock-manager'

// A server-run chat's events: the test sees who follows them, and when.
const followServerChat = vi.fn(async (_options: { jobId: string, afterId: number }) => 'ended' as const)
vi.mock('~/utils/chat/server-chats/server-chat', () => ({ followServerChat, waitingBrowserCalls: () => [], stopServerChat: async () => {} }))

let threadId: string
let locks: ReturnType<typeof createFakeLockManager>
const lockName = () => `plugboard:thread:${threadId}`

useFreshDatabase('one-reply-per-chat-test')
beforeEach(async () => {
  threadId = (await createThread()).id
  locks = createFakeLockManager()
  Object.defineProperty(navigator, 'locks', { value: locks.manager, configurable: true })
  followServerChat.mockClear()
})
afterEach(() => {
  Reflect.deleteProperty(navigator, 'locks')
})

function startChat(model: ScriptedModel) {
  return effectScope().run(() => useChat(() => threadId, { createModel: () => model, getToolSet: async () => toolSetFromArray([]) }))!
}

describe('one reply per chat at a time, across tabs', () => {
  it('refuses to send while another tab writes the reply, stores nothing, and sends once that reply ended', async () => {
    const release = await locks.holdElsewhere(lockName())
    const model = createScriptedModel([textStep('hello from this tab')])
    const chat = startChat(model)
    await expect.poll(() => chat.busyElsewhere.value).toBe(true)
    expect(await chat.send('are you there?')).toBe(false)
    await chat.retry()
    await chat.continueLoop()
    expect(await listMessages(threadId)).toEqual([])
    expect(model.requests).toHaveLength(0)

    release()
    await expect.poll(() => chat.busyElsewhere.value).toBe(false)
    expect(await chat.send('are you there?')).toBe(true)
    await expect.poll(() => chat.streaming.value).toBe(false)
    expect((await listMessages(threadId)).map(row => row.content)).toEqual(['are you there?', 'hello from this tab'])
  })

  it('holds the chat for the whole reply, so another tab cannot start one before it ends', async () => {
    const model = createScriptedModel([textStep(['one ', 'two ', 'three'])], { delayMs: 20 })
    const chat = startChat(model)
    await chat.send('count')
    expect(chat.streaming.value).toBe(true)
    expect(locks.available(lockName())).toBe(false)
    await expect.poll(() => chat.streaming.value).toBe(false)
    expect(locks.available(lockName())).toBe(true)
  })

  it('a refused claim (the other tab started first) shows the chat busy instead of queueing the message', async () => {
    const model = createScriptedModel([])
    const chat = startChat(model)
    await expect.poll(() => chat.busyElsewhere.value).toBe(false)
    const release = await locks.holdElsewhere(lockName())
    expect(await chat.send('too late')).toBe(false)
    expect(chat.busyElsewhere.value).toBe(true)
    expect(await listMessages(threadId)).toEqual([])
    release()
    await expect.poll(() => chat.busyElsewhere.value).toBe(false)
  })

  it('leaves a server-run chat to the tab that follows it, and follows it itself once that tab lets go', async () => {
    await setServerJob(threadId, { id: 'job-1', lastEventId: 4 })
    const release = await locks.holdElsewhere(lockName())
    const chat = startChat(createScriptedModel([]))
    await expect.poll(() => chat.busyElsewhere.value).toBe(true)
    expect(followServerChat).not.toHaveBeenCalled()

    release()
    await expect.poll(() => followServerChat.mock.calls.length).toBe(1)
    expect(followServerChat.mock.calls[0]![0]).toMatchObject({ jobId: 'job-1', afterId: 4 })
  })
})
