import { afterEach, describe, expect, it, vi } from 'vitest'
import { effectScope, shallowRef } from 'vue'
import { useMessageWindow } from '~/composables/useMessageWindow'
import { addMessage, listMessages } from '~/db/messages'
import { listLatestMessages } from '~/db/message-window'
import { createThread } from '~/db/threads'
import { createFrameBatch } from '~/utils/chat/scheduling/frame-batch'
import { useFreshDatabase } from './helpers/fresh-database'

useFreshDatabase('message-window-test')

async function threadWith(count: number) {
  const thread = await createThread()
  for (let index = 1; index <= count; index++) await addMessage({ threadId: thread.id, role: index % 2 ? 'user' : 'assistant', content: `m${index}`, status: 'complete' })
  return thread
}

describe('listLatestMessages', () => {
  it('reads the newest rows of one thread in order, and says whether older ones exist', async () => {
    const thread = await threadWith(12)
    await threadWith(3)
    const window = await listLatestMessages(thread.id, 5)
    expect(window.rows.map(row => row.content)).toEqual(['m8', 'm9', 'm10', 'm11', 'm12'])
    expect(window.hasOlder).toBe(true)
    const all = await listLatestMessages(thread.id, 12)
    expect(all.rows).toEqual(await listMessages(thread.id))
    expect(all.hasOlder).toBe(false)
  })

  it('leaves a tool row whose call is older for the next page', async () => {
    const thread = await createThread()
    await addMessage({ threadId: thread.id, role: 'user', content: 'What is 2+2?', status: 'complete' })
    await addMessage({ threadId: thread.id, role: 'assistant', content: '', status: 'complete', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'calculate', arguments: '{}' } }] })
    await addMessage({ threadId: thread.id, role: 'tool', content: '4', status: 'complete', toolCallId: 'c1', toolName: 'calculate' })
    await addMessage({ threadId: thread.id, role: 'assistant', content: 'It is 4.', status: 'complete' })
    const window = await listLatestMessages(thread.id, 2)
    expect(window.rows.map(row => row.role)).toEqual(['assistant'])
    expect(window.hasOlder).toBe(true)
    expect((await listLatestMessages(thread.id, 3)).rows.map(row => row.role)).toEqual(['assistant', 'tool', 'assistant'])
  })
})

describe('useMessageWindow', () => {
  it('says a chat is loaded only once its own rows were read (the page shows no new-chat screen before)', async () => {
    const first = await threadWith(3)
    const second = await threadWith(2)
    const threadId = shallowRef<string | undefined>(undefined)
    const scope = effectScope()
    // Markdown prerendering (tested in message-window-prerender) would load the renderer after this test ends.
    const window = scope.run(() => useMessageWindow(threadId, { prerenderMarkdown: false }))!
    // no chat named: the new-chat screen at once
    expect(window.loaded.value).toBe(true)
    threadId.value = first.id
    expect(window.loaded.value).toBe(false)
    await vi.waitFor(() => expect(window.loaded.value).toBe(true))
    expect(window.rows.value.map(row => row.content)).toEqual(['m1', 'm2', 'm3'])
    // another chat: not loaded while the previous chat's rows are still the ones read
    threadId.value = second.id
    expect(window.loaded.value).toBe(false)
    await vi.waitFor(() => expect(window.loaded.value).toBe(true))
    expect(window.rows.value.map(row => row.content)).toEqual(['m1', 'm2'])
    scope.stop()
  })
})

describe('createFrameBatch', () => {
  afterEach(() => vi.useRealTimers())

  it('applies the first value right away, then only the latest value once per frame, and nothing after cancel', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] })
    const applied: number[] = []
    const batch = createFrameBatch<number>(value => applied.push(value))
    batch.push(1)
    expect(applied).toEqual([])
    batch.push(2)
    vi.advanceTimersByTime(1)
    expect(applied).toEqual([2])
    batch.push(3)
    batch.push(4)
    expect(applied).toEqual([2])
    vi.advanceTimersByTime(40)
    expect(applied).toEqual([2, 4])
    batch.push(5)
    batch.cancel()
    vi.advanceTimersByTime(40)
    expect(applied).toEqual([2, 4])
    batch.push(6)
    batch.flush()
    expect(applied).toEqual([2, 4, 6])
  })

  it('shows a word that arrives after a quiet frame before the next frame, not one frame late', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] })
    const applied: string[] = []
    const batch = createFrameBatch<string>(value => applied.push(value))
    // A model writing a word every 40 ms: each word is applied well before the next frame (16 ms) and the next word.
    for (const word of ['w0', 'w0 w1', 'w0 w1 w2']) {
      batch.push(word)
      vi.advanceTimersByTime(1)
      expect(applied.at(-1)).toBe(word)
      vi.advanceTimersByTime(39)
    }
    expect(applied).toEqual(['w0', 'w0 w1', 'w0 w1 w2'])
  })
})
