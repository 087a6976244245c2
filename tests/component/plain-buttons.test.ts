import { describe, expect, it, vi } from 'vitest'
import { h, type Component } from 'vue'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import { UButton, UTextarea } from '#components'
import ChatComposer from '~/components/chat/ChatComposer.vue'
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

describe('plain buttons and the composer\'s textarea with Nuxt UI\'s classes', () => {
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

  it('gives the composer\'s box the classes of its UTextarea, and grows it with the text up to 12 lines', async () => {
    const reference = await mountSuspended({ render: () => h(UTextarea as unknown as Component, { variant: 'none', autoresize: true, rows: 1, maxrows: 12, class: 'w-full', ui: { base: 'resize-none px-2 py-1.5 text-base' } }) })
    const composer = await mountSuspended(ChatComposer, { props: { streaming: false, modelValue: '' }, attachTo: document.body })
    const box = composer.find('[data-testid="composer-input"]')
    expect(box.element.tagName).toBe('TEXTAREA')
    expect(box.classes().sort()).toEqual(reference.find('textarea').classes().sort())
    expect(box.element.parentElement!.className.split(' ').sort()).toEqual(reference.find('textarea').element.parentElement!.className.split(' ').sort())
    expect(box.attributes('rows')).toBe('1')
    // jsdom has no layout: give the box one a browser would, 24 px lines, 12 px of padding
    const element = box.element as HTMLTextAreaElement
    Object.defineProperty(element, 'scrollHeight', { configurable: true, get: () => 12 + 24 * element.value.split('\n').length })
    const computed = window.getComputedStyle
    window.getComputedStyle = ((target: Element) => target === element ? { paddingTop: '6px', paddingBottom: '6px', lineHeight: '24px' } as CSSStyleDeclaration : computed(target)) as typeof window.getComputedStyle
    try {
      await composer.setProps({ modelValue: 'one\ntwo\nthree' })
      await vi.waitFor(() => expect(Number(element.rows)).toBe(3))
      await composer.setProps({ modelValue: Array.from({ length: 40 }, (_, line) => `line ${line}`).join('\n') })
      await vi.waitFor(() => expect(Number(element.rows)).toBe(12))
      await composer.setProps({ modelValue: '' })
      await vi.waitFor(() => expect(Number(element.rows)).toBe(1))
    }
    finally {
      window.getComputedStyle = computed
      composer.unmount()
    }
  })

  it('gives the composer\'s Send and Stop the classes of a solid primary and a solid neutral UButton with an icon', async () => {
    const send = await uButtonClasses({ icon: 'i-lucide-arrow-up', label: 'Send', disabled: true }, false)
    const stop = await uButtonClasses({ color: 'neutral', variant: 'solid', icon: 'i-lucide-square', label: 'Stop' }, false)
    const idle = await mountSuspended(ChatComposer, { props: { streaming: false, modelValue: '' } })
    const sendButton = idle.find('[data-testid="send-button"]')
    expect(sendButton.classes().sort()).toEqual(send.base)
    expect(sendButton.find('svg, [class*="size-"]').classes().sort()).toEqual(send.icon)
    expect(sendButton.text()).toBe('Send')
    expect(sendButton.attributes('disabled')).toBeDefined()
    await idle.setProps({ modelValue: 'hello' })
    expect(sendButton.attributes('disabled')).toBeUndefined()
    const streaming = await mountSuspended(ChatComposer, { props: { streaming: true, modelValue: '' } })
    const stopButton = streaming.find('[data-testid="stop-button"]')
    expect(stopButton.classes().sort()).toEqual(stop.base)
    expect(stopButton.find('svg, [class*="size-"]').classes().sort()).toEqual(stop.icon)
    expect(stopButton.text()).toBe('Stop')
  })
})
