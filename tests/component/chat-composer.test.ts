import { describe, expect, it, vi } from 'vitest'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatComposer from '~/components/chat/ChatComposer.vue'

async function mountComposer(props: { modelValue?: string, streaming?: boolean, disabled?: boolean } = {}) {
  return mountSuspended(ChatComposer, { props: { streaming: false, modelValue: '', ...props } })
}

function input(wrapper: Awaited<ReturnType<typeof mountComposer>>) {
  return wrapper.find('[data-testid="composer-input"]')
}

describe('ChatComposer', () => {
  it('sends the typed text on Enter and leaves clearing it to the parent', async () => {
    const wrapper = await mountComposer({ modelValue: 'Hello there' })
    await input(wrapper).trigger('keydown', { key: 'Enter' })
    expect(wrapper.emitted('send')).toEqual([['Hello there']])
    expect(wrapper.emitted('update:modelValue')).toBeUndefined()
    expect((input(wrapper).element as HTMLTextAreaElement).value).toBe('Hello there')
  })

  it('does not send on Shift+Enter', async () => {
    const wrapper = await mountComposer({ modelValue: 'line one' })
    await input(wrapper).trigger('keydown', { key: 'Enter', shiftKey: true })
    expect(wrapper.emitted('send')).toBeUndefined()
  })

  it('does not send empty or whitespace-only text', async () => {
    const wrapper = await mountComposer({ modelValue: '  \n ' })
    await input(wrapper).trigger('keydown', { key: 'Enter' })
    await wrapper.find('form').trigger('submit')
    expect(wrapper.emitted('send')).toBeUndefined()
    expect(wrapper.find('[data-testid="send-button"]').attributes('disabled')).toBeDefined()
  })

  it('sends with the Send button', async () => {
    const wrapper = await mountComposer({ modelValue: 'via button' })
    await wrapper.find('form').trigger('submit')
    expect(wrapper.emitted('send')).toEqual([['via button']])
  })

  it.each([
    ['between compositionstart and compositionend', { key: 'Enter' }, true],
    ['flagged isComposing', { key: 'Enter', isComposing: true }, false],
    ['reported with keyCode 229', { key: 'Enter', keyCode: 229 }, false],
  ])('does not send on an IME Enter %s', async (_label, keydown, startComposition) => {
    const wrapper = await mountComposer({ modelValue: 'にほんご' })
    if (startComposition) await input(wrapper).trigger('compositionstart')
    await input(wrapper).trigger('keydown', keydown)
    expect(wrapper.emitted('send')).toBeUndefined()
  })

  it('sends again on Enter once the composition has ended', async () => {
    const wrapper = await mountComposer({ modelValue: 'にほんご' })
    await input(wrapper).trigger('compositionstart')
    await input(wrapper).trigger('compositionend')
    // The confirming Enter may follow compositionend in the same task; the user's next Enter sends.
    await vi.waitFor(async () => {
      await input(wrapper).trigger('keydown', { key: 'Enter' })
      expect(wrapper.emitted('send')).toEqual([['にほんご']])
    })
  })

  it('shows Stop instead of Send while streaming, and Stop emits stop', async () => {
    const wrapper = await mountComposer({ modelValue: '', streaming: true })
    expect(wrapper.find('[data-testid="send-button"]').exists()).toBe(false)
    const stop = wrapper.find('[data-testid="stop-button"]')
    expect(stop.attributes('aria-label')).toBe('Stop generating')
    await stop.trigger('click')
    expect(wrapper.emitted('stop')).toHaveLength(1)
  })

  it('does not send on Enter while streaming, keeping the draft', async () => {
    const wrapper = await mountComposer({ modelValue: 'next question', streaming: true })
    await input(wrapper).trigger('keydown', { key: 'Enter' })
    expect(wrapper.emitted('send')).toBeUndefined()
    expect((input(wrapper).element as HTMLTextAreaElement).value).toBe('next question')
  })

  it('does not send when disabled', async () => {
    const wrapper = await mountComposer({ modelValue: 'hi', disabled: true })
    await input(wrapper).trigger('keydown', { key: 'Enter' })
    expect(wrapper.emitted('send')).toBeUndefined()
  })

  it('reports typing through v-model', async () => {
    const wrapper = await mountComposer({ modelValue: '' })
    await input(wrapper).setValue('typed')
    expect(wrapper.emitted('update:modelValue')?.at(-1)).toEqual(['typed'])
  })

  it('renders the tools slot next to the buttons', async () => {
    const wrapper = await mountSuspended(ChatComposer, {
      props: { streaming: false, modelValue: '' },
      slots: { tools: () => 'TOOLS-HERE' },
    })
    expect(wrapper.text()).toContain('TOOLS-HERE')
  })

  it('grows the box with the text up to 12 lines, then back to one when the parent clears it', async () => {
    const composer = await mountSuspended(ChatComposer, { props: { streaming: false, modelValue: '' }, attachTo: document.body })
    const box = composer.find('[data-testid="composer-input"]')
    expect(box.element.tagName).toBe('TEXTAREA')
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
})
