import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatMessage from '~/components/chat/ChatMessage.vue'
import { renderMarkdown } from '~/utils/chat/markdown/markdown'
import { highlightCodeBlocks } from '~/utils/chat/markdown/highlight'
import { row } from './chat-message-fixtures'

// Spy on the real functions: count the markdown parses and the highlight passes the message asks for.
vi.mock('~/utils/chat/markdown/markdown', async (importOriginal) => {
  const actual = await importOriginal<typeof import('~/utils/chat/markdown/markdown')>()
  return { ...actual, renderMarkdown: vi.fn(actual.renderMarkdown) }
})
vi.mock('~/utils/chat/markdown/highlight', async (importOriginal) => {
  const actual = await importOriginal<typeof import('~/utils/chat/markdown/highlight')>()
  return { ...actual, highlightCodeBlocks: vi.fn(async () => 0) }
})

const render = vi.mocked(renderMarkdown)
const highlight = vi.mocked(highlightCodeBlocks)

beforeEach(() => {
  render.mockClear()
  highlight.mockClear()
})

describe('ChatMessage while a reply streams', () => {
  it('re-renders only the last block per token; finished blocks are not parsed again', async () => {
    const blocks = ['First paragraph.', '- a list\n- of items', 'Third, still arriving']
    const message = row({ role: 'assistant', status: 'streaming', content: blocks.join('\n\n') })
    const wrapper = await mountSuspended(ChatMessage, { props: { message, streaming: true } })
    expect(render.mock.calls.map(([source]) => source)).toEqual(blocks)
    render.mockClear()

    let content = message.content
    for (const token of [' and', ' more', ' words']) {
      content += token
      await wrapper.setProps({ message: { ...message, content } })
    }
    expect(render.mock.calls.map(([source]) => source)).toEqual([
      'Third, still arriving and',
      'Third, still arriving and more',
      'Third, still arriving and more words',
    ])
    expect(wrapper.text()).toContain('Third, still arriving and more words')

    // A new block starts: only it is parsed; the block before it keeps its last rendering.
    render.mockClear()
    await wrapper.setProps({ message: { ...message, content: `${content}\n\nFourth` } })
    expect(render.mock.calls.map(([source]) => source)).toEqual(['Fourth'])
    expect(wrapper.findAll('[data-slot="markdown-block"]')).toHaveLength(4)
  })

  it('highlights code only once its block is finished, not while tokens arrive', async () => {
    const message = row({ role: 'assistant', status: 'streaming', content: 'Here:\n\n```ts\nconst a = 1' })
    const wrapper = await mountSuspended(ChatMessage, { props: { message, streaming: true } })
    // Whatever a token schedules runs now: a highlight pass queued on the per-token path would show up here.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestIdleCallback', 'cancelIdleCallback'] })
    try {
      await wrapper.setProps({ message: { ...message, content: `${message.content}\nconst b = 2` } })
      await vi.runAllTimersAsync()
    }
    finally {
      vi.useRealTimers()
    }
    expect(wrapper.text()).toContain('const b = 2')
    expect(highlight).not.toHaveBeenCalled()

    await wrapper.setProps({ message: { ...message, status: 'complete', content: `${message.content}\nconst b = 2\n\`\`\`` }, streaming: false })
    await vi.waitFor(() => expect(highlight).toHaveBeenCalledTimes(1))
    const root = highlight.mock.calls[0]![0] as HTMLElement
    // the root handed to the highlighter holds the finished code block
    expect(root.querySelector('code.language-ts')?.textContent).toBe('const a = 1\nconst b = 2\n')
  })
})
