import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { effectScope, ref } from 'vue'
import { addMessage } from '~/db/messages'
import { createThread } from '~/db/threads'
import { useChatUsageRows } from '~/composables/useChatUsage'
import { useFreshDatabase } from './helpers/fresh-database'

const database = useFreshDatabase('chat-usage-rows-test')

/** The browser's idle callbacks asked to run within a second, held until the test lets them run. */
let idle: Array<{ run: () => void, timeout: number }> = []
let rowsRead = 0

beforeEach(() => {
  idle = []
  rowsRead = 0
  // Counts the message rows read from here on (the rows written by the test are not reads).
  database().messages.hook('reading', row => {
    rowsRead++
    return row
  })
  window.requestIdleCallback = ((run: IdleRequestCallback, options?: IdleRequestOptions) => {
    const call = () => run({ didTimeout: false, timeRemaining: () => 10 })
    // Held: what asks to run within a second of idle time (the figure's read). Other work (the search index, which
    // the messages written here wake, waits up to 5 s) runs on the next task.
    if (options?.timeout !== undefined && options.timeout <= 1000) idle.push({ run: call, timeout: options.timeout })
    else setTimeout(call, 0)
    return 1
  }) as typeof window.requestIdleCallback
  window.cancelIdleCallback = () => {}
})

afterEach(() => {
  // jsdom has no idle callbacks of its own: the other files of this worker see the window as it was.
  Reflect.deleteProperty(window, 'requestIdleCallback')
  Reflect.deleteProperty(window, 'cancelIdleCallback')
})

async function chatWith(count: number) {
  const thread = await createThread()
  for (let index = 0; index < count; index++) {
    await addMessage({ threadId: thread.id, role: index % 2 ? 'assistant' : 'user', content: `message ${index}`, status: 'complete' })
  }
  rowsRead = 0
  return thread.id
}

/** Waits until `count` idle callbacks are held. */
async function idleAsked(count: number) {
  await expect.poll(() => idle.length).toBe(count)
}

describe('the usage figure\'s rows of a chat', () => {
  it('reads a chat just opened only once the browser is idle (asked for within a second)', async () => {
    const id = await chatWith(6)
    const scope = effectScope()
    const { rows } = scope.run(() => useChatUsageRows(ref(id), ref(0)))!
    await idleAsked(1)
    expect(rowsRead).toBe(0)
    expect(rows.value).toEqual([])

    idle.shift()!.run()
    await expect.poll(() => rows.value.length).toBe(6)
    expect(rowsRead).toBe(6)
    scope.stop()
  })

  it('reads again at once when a reply finishes, without waiting for idle', async () => {
    const id = await chatWith(2)
    const changed = ref(0)
    const scope = effectScope()
    const { rows } = scope.run(() => useChatUsageRows(ref(id), changed))!
    await idleAsked(1)
    idle.shift()!.run()
    await expect.poll(() => rows.value.length).toBe(2)

    await addMessage({ threadId: id, role: 'assistant', content: 'a reply', status: 'complete' })
    changed.value++
    await expect.poll(() => rows.value.length).toBe(3)
    expect(idle).toHaveLength(0)
    scope.stop()
  })

  it('shows nothing of the previous chat on a switch, and drops a read the switch made stale', async () => {
    const first = await chatWith(3)
    const second = await chatWith(1)
    const threadId = ref(first)
    const scope = effectScope()
    const { rows } = scope.run(() => useChatUsageRows(threadId, ref(0)))!
    await idleAsked(1)
    idle.shift()!.run()
    await expect.poll(() => rows.value.length).toBe(3)

    threadId.value = second
    await idleAsked(1)
    expect(rows.value).toEqual([])
    // Switched back before the idle moment came: the second chat's rows are never read or shown.
    threadId.value = first
    await idleAsked(2)
    idle.shift()!.run()
    idle.shift()!.run()
    await expect.poll(() => rows.value.map(row => row.threadId)).toEqual([first, first, first])
    expect(rowsRead).toBe(6)
    scope.stop()
  })
})
