import { describe, expect, it } from 'vitest'
import { h } from 'vue'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import { UButton } from '#components'
import ChatMessage from '~/components/chat/ChatMessage.vue'
import ChatThreadList from '~/components/chat/ChatThreadList.vue'
import ChatToolCard from '~/components/chat/ChatToolCard.vue'
import type { ThreadRecord } from '~/db/types'
import { row, toolRow } from './chat-message-fixtures'

// The tool card's "View details" and the chat list's row buttons are plain <button>s that take UButton's classes
// (worked out once, not per button). They must look like the UButton they replace and keep its keyboard behaviour.

/** The classes a UButton with these props renders on its <button>, and on its icon. */
async function uButtonClasses(props: Record<string, unknown>, withText: boolean) {
  const wrapper = await mountSuspended({ render: () => h(UButton, props, withText ? () => 'Text' : undefined) })
  const button = wrapper.find('button')
  const icon = button.find('svg, [class*="size-"]')
  return { base: button.classes().sort(), icon: icon.exists() ? icon.classes().sort() : [] }
}

describe('plain buttons with Nuxt UI\'s classes', () => {
  it('gives the tool card\'s details toggle the classes of an xs neutral ghost UButton with a trailing icon', async () => {
    const expected = await uButtonClasses({ size: 'xs', color: 'neutral', variant: 'ghost', trailingIcon: 'i-lucide-chevron-down' }, true)
    const card = await mountSuspended(ChatToolCard, { props: { row: toolRow('calculate', { toolResultFull: '84' }) } })
    const toggle = card.find('[data-testid="tool-details-toggle"]')
    expect(toggle.element.tagName).toBe('BUTTON')
    expect(toggle.attributes('type')).toBe('button')
    expect(toggle.classes().filter(name => name !== 'shrink-0').sort()).toEqual(expected.base)
    expect(toggle.find('svg, [class*="size-"]').classes().sort()).toEqual(expected.icon)
    // and it still opens the details for the keyboard and screen readers
    expect(toggle.attributes('aria-expanded')).toBe('false')
    await toggle.trigger('click')
    expect(toggle.attributes('aria-expanded')).toBe('true')
    expect(card.find(`#${toggle.attributes('aria-controls')}`).exists()).toBe(true)
  })

  it('gives a chat row\'s rename and delete buttons the classes of an xs neutral ghost icon UButton', async () => {
    const expected = await uButtonClasses({ size: 'xs', color: 'neutral', variant: 'ghost', icon: 'i-lucide-pencil' }, false)
    const threads: ThreadRecord[] = [{ id: 't1', title: 'Weather in Lisbon', createdAt: 1, updatedAt: 1 }]
    const list = await mountSuspended(ChatThreadList, { props: { threads } })
    for (const testId of ['thread-rename', 'thread-delete']) {
      const button = list.find(`[data-testid="${testId}"]`)
      expect(button.classes().sort(), testId).toEqual(expected.base)
      expect(button.find('svg, [class*="size-"]').classes().sort(), testId).toEqual(expected.icon)
      expect(button.attributes('aria-label'), testId).toContain('Weather in Lisbon')
    }
  })

  it('gives a message\'s Copy button the classes of an xs neutral ghost icon UButton', async () => {
    const expected = await uButtonClasses({ size: 'xs', color: 'neutral', variant: 'ghost', icon: 'i-lucide-copy' }, false)
    const message = await mountSuspended(ChatMessage, { props: { message: row({ role: 'assistant', content: 'Done' }) } })
    const button = message.find('[data-testid="message-copy"]')
    expect(button.element.tagName).toBe('BUTTON')
    expect(button.classes().sort()).toEqual(expected.base)
    expect(button.find('svg, [class*="size-"]').classes().sort()).toEqual(expected.icon)
  })

  it('keeps the focus on the delete button when it turns into Confirm, which looks like a solid error UButton', async () => {
    const expected = await uButtonClasses({ size: 'xs', color: 'error', variant: 'solid', label: 'Confirm' }, false)
    const threads: ThreadRecord[] = [{ id: 't1', title: 'Weather in Lisbon', createdAt: 1, updatedAt: 1 }]
    const list = await mountSuspended(ChatThreadList, { props: { threads }, attachTo: document.body })
    const before = list.find('[data-testid="thread-delete"]')
    ;(before.element as HTMLButtonElement).focus()
    await before.trigger('click')
    const after = list.find('[data-testid="thread-delete"]')
    // the same element, so a keyboard user presses Enter again to confirm
    expect(after.element).toBe(before.element)
    expect(document.activeElement).toBe(after.element)
    expect(after.text()).toBe('Confirm')
    expect(after.attributes('aria-label')).toBe('Confirm deleting “Weather in Lisbon”')
    expect(after.classes().sort()).toEqual(expected.base)
    await after.trigger('click')
    expect(list.emitted('delete')).toEqual([['t1']])
    list.unmount()
  })
})
