import { describe, expect, it, vi } from 'vitest'
import { effectScope, nextTick, shallowRef } from 'vue'
import { addMessage, listMessages } from '~/db/messages'
import { addEditedMessage } from '~/db/message-branches'
import { createThread } from '~/db/threads'
import type { MessageRecord } from '~/db/types'
import { useOpenAtMessage } from '~/composables/useOpenAtMessage'
import { useFreshDatabase } from './helpers/fresh-database'

useFreshDatabase('open-at-message-test')

/** A message window of `pages` (newest first) that reads one more page per `loadOlder()`, as Dexie does: later. */
function fakeWindow(threadId: string, pages: MessageRecord[][]) {
  let shown = 1
  const rows = shallowRef<MessageRecord[]>(pages[0]!)
  const hasOlder = shallowRef(pages.length > 1)
  const loading = shallowRef(false)
  const loadOlder = vi.fn(() => {
    loading.value = true
    setTimeout(() => {
      shown += 1
      rows.value = pages.slice(0, shown).reverse().flat()
      hasOlder.value = shown < pages.length
      loading.value = false
    }, 0)
  })
  return { threadId: shallowRef<string | undefined>(threadId), rows, hasOlder, loading, loaded: shallowRef(true), loadOlder }
}

const row = (id: string) => ({ id }) as MessageRecord

describe('opening a chat at a message', () => {
  it('reads older pages until the message is among the rows, then names it for the list', async () => {
    const thread = await createThread()
    const message = await addMessage({ threadId: thread.id, role: 'user', content: 'Tokyo?', status: 'complete' })
    const window = fakeWindow(thread.id, [[row('new')], [row('mid')], [message], [row('oldest')]])
    const scope = effectScope()
    const open = scope.run(() => useOpenAtMessage(window))!
    await open.openAtMessage(thread.id, message.id)
    await vi.waitFor(() => expect(open.focusMessageId.value).toBe(message.id))
    expect(window.loadOlder).toHaveBeenCalledTimes(2)
    open.onFocused()
    await nextTick()
    expect(open.focusMessageId.value).toBeUndefined()
    scope.stop()
  })

  it('shows the branch holding the message when it is not the one shown', async () => {
    const thread = await createThread()
    const question = await addMessage({ threadId: thread.id, role: 'user', content: 'Q about Tokyo', status: 'complete' })
    const answer = await addMessage({ threadId: thread.id, role: 'assistant', content: 'A1', status: 'complete' })
    await addEditedMessage(question.id, 'Q2')
    expect((await listMessages(thread.id)).map(item => item.content)).toEqual(['Q2'])
    const scope = effectScope()
    const open = scope.run(() => useOpenAtMessage(fakeWindow(thread.id, [[]])))!
    await open.openAtMessage(thread.id, answer.id)
    expect((await listMessages(thread.id)).map(item => item.content)).toEqual(['Q about Tokyo', 'A1'])
    scope.stop()
  })

  it('says so, and changes nothing, when the branch may not change now or the message is gone', async () => {
    const thread = await createThread()
    const question = await addMessage({ threadId: thread.id, role: 'user', content: 'Q', status: 'complete' })
    await addEditedMessage(question.id, 'Q2')
    const scope = effectScope()
    const open = scope.run(() => useOpenAtMessage(fakeWindow(thread.id, [[]])))!
    await expect(open.openAtMessage(thread.id, question.id, { mayChangeBranch: false })).rejects.toThrow('another branch')
    expect((await listMessages(thread.id)).map(item => item.content)).toEqual(['Q2'])
    await expect(open.openAtMessage(thread.id, 'missing')).rejects.toThrow('no longer in the chat')
    scope.stop()
  })
})
