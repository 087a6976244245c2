import { describe, expect, it, vi } from 'vitest'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatThreadList from '~/components/chat/ChatThreadList.vue'
import type { ThreadRecord } from '~/db/types'
import { addMessage } from '~/db/messages'
import { createThread } from '~/db/threads'

const threads: ThreadRecord[] = [
  { id: 't1', title: 'Weather in Lisbon', createdAt: 1, updatedAt: 3 },
  { id: 't2', title: 'Regex for emails', createdAt: 1, updatedAt: 2 },
  { id: 't3', title: 'Lisbon restaurants', createdAt: 1, updatedAt: 1 },
]

async function mountList(props: { threads?: ThreadRecord[], activeId?: string } = {}) {
  return mountSuspended(ChatThreadList, { props: { threads, ...props } })
}

type Wrapper = Awaited<ReturnType<typeof mountList>>
const items = (wrapper: Wrapper) => wrapper.findAll('[data-testid="thread-item"]')
const item = (wrapper: Wrapper, id: string) => wrapper.find(`[data-thread-id="${id}"]`)

describe('ChatThreadList', () => {
  it('lists the threads inside a navigation landmark and marks the active one', async () => {
    const wrapper = await mountList({ activeId: 't2' })
    expect(wrapper.find('nav').attributes('aria-label')).toBe('Conversations')
    expect(items(wrapper).map(row => row.text())).toEqual([
      expect.stringContaining('Weather in Lisbon'),
      expect.stringContaining('Regex for emails'),
      expect.stringContaining('Lisbon restaurants'),
    ])
    expect(item(wrapper, 't2').find('button[aria-current="page"]').exists()).toBe(true)
    expect(item(wrapper, 't1').find('button[aria-current="page"]').exists()).toBe(false)
  })

  it('selects a thread on click and creates one with the new button', async () => {
    const wrapper = await mountList()
    await item(wrapper, 't3').find('button').trigger('click')
    await wrapper.find('[data-testid="new-thread"]').trigger('click')
    expect(wrapper.emitted('select')).toEqual([['t3']])
    expect(wrapper.emitted('create')).toHaveLength(1)
  })

  it('filters by title, ignoring case', async () => {
    const wrapper = await mountList()
    await wrapper.find('[data-testid="thread-filter"]').setValue('lisBON')
    expect(items(wrapper).map(row => row.attributes('data-thread-id'))).toEqual(['t1', 't3'])
  })

  it('says so when the filter matches nothing', async () => {
    const wrapper = await mountList()
    await wrapper.find('[data-testid="thread-filter"]').setValue('kubernetes')
    expect(items(wrapper)).toHaveLength(0)
    // once the messages were searched too
    await vi.waitFor(() => expect(wrapper.text()).toContain('No conversation matches “kubernetes”'))
  })

  it('shows an empty state with a way to start', async () => {
    const wrapper = await mountList({ threads: [] })
    expect(wrapper.text()).toContain('No conversations yet')
  })

  it('renames inline: Enter saves the trimmed title', async () => {
    const wrapper = await mountList()
    await item(wrapper, 't2').find('[data-testid="thread-rename"]').trigger('click')
    const input = wrapper.find('[data-testid="thread-rename-input"]')
    expect((input.element as HTMLInputElement).value).toBe('Regex for emails')
    await input.setValue('  Email regex  ')
    await input.trigger('keydown', { key: 'Enter' })
    expect(wrapper.emitted('rename')).toEqual([['t2', 'Email regex']])
    expect(wrapper.find('[data-testid="thread-rename-input"]').exists()).toBe(false)
  })

  it('renames on double-click too', async () => {
    const wrapper = await mountList()
    await item(wrapper, 't1').find('button').trigger('dblclick')
    expect(wrapper.find('[data-testid="thread-rename-input"]').exists()).toBe(true)
  })

  it('cancels a rename with Escape', async () => {
    const wrapper = await mountList()
    await item(wrapper, 't1').find('[data-testid="thread-rename"]').trigger('click')
    const input = wrapper.find('[data-testid="thread-rename-input"]')
    await input.setValue('Something else')
    await input.trigger('keydown', { key: 'Escape' })
    expect(wrapper.emitted('rename')).toBeUndefined()
    expect(item(wrapper, 't1').text()).toContain('Weather in Lisbon')
  })

  it('does not rename to an empty title', async () => {
    const wrapper = await mountList()
    await item(wrapper, 't1').find('[data-testid="thread-rename"]').trigger('click')
    const input = wrapper.find('[data-testid="thread-rename-input"]')
    await input.setValue('   ')
    await input.trigger('keydown', { key: 'Enter' })
    expect(wrapper.emitted('rename')).toBeUndefined()
  })

  it('deletes only after a second, confirming click', async () => {
    const wrapper = await mountList()
    const remove = () => item(wrapper, 't3').find('[data-testid="thread-delete"]')
    await remove().trigger('click')
    expect(wrapper.emitted('delete')).toBeUndefined()
    expect(remove().text()).toContain('Confirm')
    await remove().trigger('click')
    expect(wrapper.emitted('delete')).toEqual([['t3']])
  })

  it('drops a pending delete on Cancel', async () => {
    const wrapper = await mountList()
    await item(wrapper, 't3').find('[data-testid="thread-delete"]').trigger('click')
    await item(wrapper, 't3').find('[data-testid="thread-delete-cancel"]').trigger('click')
    await item(wrapper, 't3').find('[data-testid="thread-delete"]').trigger('click')
    expect(wrapper.emitted('delete')).toBeUndefined()
  })

  it('groups the chats under date headings, pinned ones first, and pins and unpins from the row', async () => {
    const now = Date.now()
    const wrapper = await mountList({ threads: [
      { id: 'a', title: 'Fresh', createdAt: 1, updatedAt: now },
      { id: 'b', title: 'Old but pinned', createdAt: 1, updatedAt: 1, pinned: now },
    ] })
    expect(wrapper.findAll('[data-testid="thread-group-heading"]').map(heading => heading.text())).toEqual(['Pinned', 'Today'])
    expect(items(wrapper).map(row => row.attributes('data-thread-id'))).toEqual(['b', 'a'])
    await item(wrapper, 'b').find('[data-testid="thread-pin"]').trigger('click')
    await item(wrapper, 'a').find('[data-testid="thread-pin"]').trigger('click')
    expect(wrapper.emitted('pin')).toEqual([['b', false], ['a', true]])
    expect(item(wrapper, 'a').find('[data-testid="thread-pin"]').attributes('aria-label')).toBe('Pin “Fresh”')
  })

  it('finds a chat by the text of its messages, and opens the message with the arrow keys and Enter', async () => {
    const stored = await createThread('Trip planning')
    await addMessage({ threadId: stored.id, role: 'user', content: 'What time is it in Tokyo right now?', status: 'complete' })
    const wrapper = await mountList({ threads: [{ ...stored }, ...threads] })
    const filter = wrapper.find('[data-testid="thread-filter"]')
    await filter.setValue('tokyo')
    await vi.waitFor(() => expect(wrapper.findAll('[data-testid="message-result"]')).toHaveLength(1), { timeout: 5_000 })
    const result = wrapper.find('[data-testid="message-result"]')
    expect(result.text()).toContain('Trip planning')
    expect(result.find('mark').text()).toBe('Tokyo')
    await filter.trigger('keydown', { key: 'ArrowDown' })
    expect(filter.attributes('aria-activedescendant')).toBe(`message-result-${result.attributes('data-result-message-id')}`)
    await filter.trigger('keydown', { key: 'Enter' })
    expect(wrapper.emitted('openMessage')).toEqual([[stored.id, result.attributes('data-result-message-id')]])
    await filter.trigger('keydown', { key: 'Escape' })
    expect((filter.element as HTMLInputElement).value).toBe('')
  })
})
