// Paging older rows into the open chat's window: each page is read on its own (never the whole window again), the
// rows stay complete and in order while new ones arrive, and rows already shown keep their objects.
import { describe, expect, it, vi } from 'vitest'
import { effectScope, shallowRef, watch } from 'vue'
import { useMessageWindow } from '~/composables/useMessageWindow'
import { getDatabase } from '~/db/database'
import { addMessage, deleteMessagesAfter, listMessages, updateMessage } from '~/db/messages'
import { branchAt, switchBranch } from '~/db/message-branches'
import { createThread } from '~/db/threads'
import type { MessageRecord } from '~/db/types'
import { longChat } from '../e2e/support/seed-chat'
import { useFreshDatabase } from './helpers/fresh-database'

useFreshDatabase('message-window-paging-test')

/** The e2e bench's long chat (user, assistant with a calculate call, its tool row, the answer), stored. */
async function storeLongChat(count: number) {
  const chat = longChat(`paging-${Math.random().toString(36).slice(2)}`, count)
  await getDatabase().threads.put(chat.thread)
  await getDatabase().messages.bulkPut(chat.messages)
  return chat
}

function openWindow(threadId: () => string | undefined) {
  const scope = effectScope()
  const window = scope.run(() => useMessageWindow(threadId, { initialSize: 20, pageSize: 30, prerenderMarkdown: false }))!
  return { window, stop: () => scope.stop() }
}

async function pageIn(window: ReturnType<typeof useMessageWindow>) {
  const before = window.rows.value.length
  window.loadOlder()
  await vi.waitFor(() => expect(window.loading.value).toBe(false))
  expect(window.rows.value.length).toBeGreaterThan(before)
}

const ids = (rows: readonly MessageRecord[]) => rows.map(row => row.id)

describe('useMessageWindow paging', () => {
  it('pages to the first row with every row once, in order, and no tool row shown apart from its call', async () => {
    const chat = await storeLongChat(200)
    const { window, stop } = openWindow(() => chat.thread.id)
    await vi.waitFor(() => expect(window.loaded.value).toBe(true))
    expect(window.rows.value.length).toBeLessThanOrEqual(20)
    let pages = 0
    while (window.hasOlder.value) {
      await pageIn(window)
      pages++
      // Every call whose result is shown is shown too.
      const shownCalls = new Set(window.rows.value.flatMap(row => row.toolCalls?.map(call => call.id) ?? []))
      expect(window.rows.value.filter(row => row.role === 'tool').every(row => shownCalls.has(row.toolCallId!))).toBe(true)
    }
    expect(pages).toBeGreaterThanOrEqual(6)
    expect(ids(window.rows.value)).toEqual(ids(chat.messages))
    stop()
  })

  it('reads only the new page when paging, never the rows already shown', async () => {
    const chat = await storeLongChat(200)
    const { window, stop } = openWindow(() => chat.thread.id)
    await vi.waitFor(() => expect(window.loaded.value).toBe(true))
    await pageIn(window)
    await pageIn(window)
    const shown = window.rows.value.length
    // Every row IndexedDB hands to the app passes Dexie's reading hook.
    let rowsRead = 0
    const count = (row: MessageRecord) => {
      rowsRead++
      return row
    }
    getDatabase().messages.hook('reading', count)
    const before = window.rows.value
    await pageIn(window)
    getDatabase().messages.hook('reading').unsubscribe(count)
    // One page (30 rows, and the one that tells whether there are older ones), not the 81 rows of the window.
    expect(rowsRead).toBeGreaterThan(0)
    expect(rowsRead).toBeLessThanOrEqual(31)
    // The rows already shown are the same objects: nothing mounted renders again.
    expect(window.rows.value.slice(-shown).every((row, index) => row === before[index])).toBe(true)
    stop()
  })

  it('keeps every paged row when new messages arrive at the bottom', async () => {
    const chat = await storeLongChat(120)
    const { window, stop } = openWindow(() => chat.thread.id)
    await vi.waitFor(() => expect(window.loaded.value).toBe(true))
    await pageIn(window)
    const shownBefore = ids(window.rows.value)
    for (let index = 0; index < 25; index++) await addMessage({ threadId: chat.thread.id, role: 'user', content: `new ${index}`, status: 'complete' })
    await vi.waitFor(() => expect(window.rows.value.at(-1)!.content).toBe('new 24'))
    expect(ids(window.rows.value).slice(0, shownBefore.length)).toEqual(shownBefore)
    expect(window.rows.value).toHaveLength(shownBefore.length + 25)
    stop()
  })

  it('shows a change to a row of an older page, and rows deleted there go away without doubles', async () => {
    const chat = await storeLongChat(120)
    const { window, stop } = openWindow(() => chat.thread.id)
    await vi.waitFor(() => expect(window.loaded.value).toBe(true))
    await pageIn(window)
    await pageIn(window)
    const target = window.rows.value[3]!
    await updateMessage(target.id, { content: 'edited far up' })
    await vi.waitFor(() => expect(window.rows.value.find(row => row.id === target.id)!.content).toBe('edited far up'))
    await deleteMessagesAfter(chat.thread.id, target.seq)
    await vi.waitFor(() => expect(window.rows.value.at(-1)!.id).toBe(target.id))
    const stored = await listMessages(chat.thread.id)
    expect(ids(window.rows.value)).toEqual(ids(stored).slice(-window.rows.value.length))
    expect(new Set(ids(window.rows.value)).size).toBe(window.rows.value.length)
    stop()
  })

  it('keeps each chat\'s pages when switching away and back, and shows them all at once', async () => {
    const chat = await storeLongChat(120)
    const other = await createThread()
    await addMessage({ threadId: other.id, role: 'user', content: 'hello', status: 'complete' })
    const open = shallowRef<string | undefined>(chat.thread.id)
    const { window, stop } = openWindow(() => open.value)
    await vi.waitFor(() => expect(window.loaded.value).toBe(true))
    await pageIn(window)
    await pageIn(window)
    const shown = ids(window.rows.value)
    open.value = other.id
    await vi.waitFor(() => expect(window.loaded.value).toBe(true))
    expect(window.rows.value.map(row => row.content)).toEqual(['hello'])
    // The rows shown at the moment the chat counts as loaded again: all its pages at once (the list looks for the
    // turn it was left at among them).
    const firstShown = new Promise<string[]>((resolve) => {
      const stop = watch(window.loaded, (loaded) => {
        if (!loaded) return
        stop()
        resolve(ids(window.rows.value))
      }, { flush: 'sync' })
    })
    open.value = chat.thread.id
    expect(await firstShown).toEqual(shown)
    stop()
  })

  it('shows the whole new path without a gap when a branch is switched under paged rows', async () => {
    const thread = await createThread()
    const say = (content: string) => addMessage({ threadId: thread.id, role: 'user', content, status: 'complete' })
    for (let index = 1; index <= 30; index++) await say(`root ${index}`)
    const fork = (await listMessages(thread.id)).at(-1)!
    // Branch B starts, branch A is written in one go, then B goes on: A is dense where B is sparse, in seq.
    const firstOfB = await say('b 1')
    for (let index = 2; index <= 5; index++) await say(`b ${index}`)
    await branchAt(fork.id)
    const firstOfA = await say('a 1')
    for (let index = 2; index <= 25; index++) await say(`a ${index}`)
    await switchBranch(firstOfB.id)
    for (let index = 6; index <= 125; index++) await say(`b ${index}`)
    const { window, stop } = openWindow(() => thread.id)
    await vi.waitFor(() => expect(window.loaded.value).toBe(true))
    while (window.hasOlder.value) await pageIn(window)
    expect(ids(window.rows.value)).toEqual(ids(await listMessages(thread.id)))
    await switchBranch(firstOfA.id)
    const path = await listMessages(thread.id)
    expect(path).toHaveLength(55)
    await vi.waitFor(() => expect(window.rows.value.at(-1)!.content).toBe('a 25'))
    while (window.hasOlder.value) await pageIn(window)
    expect(ids(window.rows.value)).toEqual(ids(path))
    stop()
  })
})
