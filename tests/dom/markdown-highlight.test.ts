import { describe, expect, it, vi } from 'vitest'
import { renderMarkdown } from '~/utils/chat/markdown/markdown'
import { highlightCodeBlocks, PAINT_TOKENS_PER_FRAME, resolveLanguage } from '~/utils/chat/markdown/highlight'

// The highlighting worker answers in-process (jsdom has no Web Worker) with the worker's own handler.
vi.mock('~/utils/chat/markdown/highlight/spawn-highlight-worker', async () => ({
  spawnHighlightWorker: (await import('./helpers/in-process-highlight-worker')).spawnInProcessHighlightWorker,
}))

// Count how often shiki's core is loaded, without changing what it does.
const coreLoads = vi.hoisted(() => ({ count: 0 }))
vi.mock('shiki/core', async (importOriginal) => {
  coreLoads.count++
  return importOriginal()
})

function mount(source: string): HTMLElement {
  const root = document.createElement('div')
  root.innerHTML = renderMarkdown(source)
  document.body.append(root)
  return root
}

describe('highlightCodeBlocks', () => {
  it('loads nothing when the reply has no code block', async () => {
    const root = mount('Just **text** and `inline code`.')
    expect(await highlightCodeBlocks(root)).toBe(0)
    expect(coreLoads.count).toBe(0)
  })

  it('colours a TypeScript block with light and dark token colours and keeps its text', async () => {
    const source = 'const answer: number = 42 // the answer\nexport { answer }'
    const root = mount(`\`\`\`ts\n${source}\n\`\`\``)
    expect(await highlightCodeBlocks(root)).toBe(1)
    expect(coreLoads.count).toBe(1)
    const code = root.querySelector('pre > code')!
    expect(code.textContent).toBe(source)
    const tokens = Array.from(code.querySelectorAll<HTMLElement>('span.shiki-token'))
    expect(tokens.length).toBeGreaterThan(5)
    const keyword = tokens.find(token => token.textContent === 'const')!
    expect(keyword.style.getPropertyValue('--shiki-light')).toMatch(/^#[0-9a-f]{6}/i)
    expect(keyword.style.getPropertyValue('--shiki-dark')).toMatch(/^#[0-9a-f]{6}/i)
    expect(keyword.style.getPropertyValue('--shiki-light')).not.toBe(keyword.style.getPropertyValue('--shiki-dark'))
  })

  it('highlights each supported language and leaves unknown ones as plain text', async () => {
    const root = mount([
      '```json\n{"a": [1, true, null]}\n```',
      '```bash\necho "$HOME" | grep x\n```',
      '```python\ndef f(x):\n    return x * 2\n```',
      '```vue\n<template><div>{{ a }}</div></template>\n```',
      '```brainfuck\n++[>+<-]\n```',
    ].join('\n\n'))
    expect(await highlightCodeBlocks(root)).toBe(4)
    const unknown = root.querySelector('code.language-brainfuck')!
    expect(unknown.querySelector('span')).toBeNull()
    expect(unknown.textContent).toBe('++[>+<-]\n')
  })

  it('does not highlight a block twice', async () => {
    const root = mount('```js\nlet x = 1\n```')
    expect(await highlightCodeBlocks(root)).toBe(1)
    const first = root.querySelector('code')!.innerHTML
    expect(await highlightCodeBlocks(root)).toBe(0)
    expect(root.querySelector('code')!.innerHTML).toBe(first)
  })

  it('paints the blocks of a long reply over several frames, at most PAINT_TOKENS_PER_FRAME token spans in each', async () => {
    // 12 blocks of about 200 tokens: 2,400 spans, which would all be styled in one frame if painted as they came
    const block = Array.from({ length: 40 }, (_, line) => `const value${line} = compute(${line}, "x")`).join('\n')
    const root = mount(Array.from({ length: 12 }, (_, index) => `\`\`\`ts\n// block ${index}\n${block}\n\`\`\``).join('\n\n'))
    // the frame the earlier tests' painting asked for comes first
    await new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 20)))
    const spansPerFrame: number[] = []
    let frames = 0
    const frame = vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => {
      // each frame: count the spans painted since the last one, then run the painter's frame callback
      const handle = ++frames
      setTimeout(() => {
        spansPerFrame.push(root.querySelectorAll('span.shiki-token').length - spansPerFrame.reduce((sum, count) => sum + count, 0))
        callback(performance.now())
      }, 0)
      return handle
    })
    try {
      expect(await highlightCodeBlocks(root)).toBe(12)
    }
    finally {
      frame.mockRestore()
    }
    const spans = root.querySelectorAll('span.shiki-token').length
    expect(spans).toBeGreaterThan(2 * PAINT_TOKENS_PER_FRAME)
    // the spans painted before each frame, and the last ones after it
    spansPerFrame.push(spans - spansPerFrame.reduce((sum, count) => sum + count, 0))
    expect(spansPerFrame.filter(count => count > 0).length).toBeGreaterThanOrEqual(Math.ceil(spans / PAINT_TOKENS_PER_FRAME))
    expect(Math.max(...spansPerFrame)).toBeLessThanOrEqual(PAINT_TOKENS_PER_FRAME)
    // and every block is whole, in its own words
    for (const [index, code] of Array.from(root.querySelectorAll('pre > code')).entries()) expect(code.textContent?.trimEnd()).toBe(`// block ${index}\n${block}`)
  })

  it('keeps markup-looking code as text', async () => {
    const root = mount('```html\n<img src=x onerror=alert(1)><script>alert(2)</script>\n```')
    await highlightCodeBlocks(root)
    expect(root.querySelector('img, script')).toBeNull()
    expect(root.querySelector('code')!.textContent).toBe('<img src=x onerror=alert(1)><script>alert(2)</script>')
  })
})

describe('resolveLanguage', () => {
  it('maps the names models write after a fence to the shipped grammars', () => {
    expect(resolveLanguage('TS')).toBe('typescript')
    expect(resolveLanguage('sh')).toBe('bash')
    expect(resolveLanguage('py')).toBe('python')
    expect(resolveLanguage('md')).toBe('markdown')
    expect(resolveLanguage('cobol')).toBeUndefined()
    expect(resolveLanguage('')).toBeUndefined()
  })
})
