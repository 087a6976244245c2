import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '~/utils/chat/markdown/markdown'

function render(source: string): DocumentFragment {
  const template = document.createElement('template')
  template.innerHTML = renderMarkdown(source)
  return template.content
}

describe('renderMarkdown', () => {
  it('renders the markdown models write: headings, emphasis, lists, quotes, tables', () => {
    const html = render('# Title\n\nSome **bold** and _italic_ and ~~gone~~.\n\n- one\n- two\n\n1. first\n2. second\n\n> quoted\n\n| a | b |\n|:--|--:|\n| 1 | 2 |')
    expect(html.querySelector('h1')?.textContent).toBe('Title')
    expect(html.querySelector('strong')?.textContent).toBe('bold')
    expect(html.querySelector('em')?.textContent).toBe('italic')
    expect(html.querySelector('s')?.textContent).toBe('gone')
    expect(html.querySelectorAll('ul > li')).toHaveLength(2)
    expect(html.querySelectorAll('ol > li')).toHaveLength(2)
    expect(html.querySelector('blockquote')?.textContent?.trim()).toBe('quoted')
    expect(html.querySelector('th')?.className).toBe('text-left')
    expect(html.querySelector('td:last-child')?.className).toBe('text-right')
    expect(html.querySelector('[style]')).toBeNull()
  })

  it('renders a code fence as pre > code with the language class and the code as text', () => {
    const code = render('```ts\nconst a = 1 < 2 && "<b>"\n```').querySelector('pre > code')
    expect(code?.className).toBe('language-ts')
    expect(code?.textContent).toBe('const a = 1 < 2 && "<b>"\n')
    expect(code?.querySelector('b')).toBeNull()
  })

  it('opens links in a new tab without handing over the opener or the referrer', () => {
    const link = render('See [the docs](https://example.com/docs).').querySelector('a')
    expect(link?.getAttribute('href')).toBe('https://example.com/docs')
    expect(link?.getAttribute('target')).toBe('_blank')
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer nofollow')
  })

  it('turns bare URLs into links', () => {
    const link = render('Visit https://example.org/page now').querySelector('a')
    expect(link?.getAttribute('href')).toBe('https://example.org/page')
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer nofollow')
  })

  it('shows raw HTML from the model as text', () => {
    const fragment = render('Hello <img src=x onerror=alert(1)> <b>bold</b>')
    expect(fragment.querySelector('img')).toBeNull()
    expect(fragment.querySelector('b')).toBeNull()
    expect(fragment.textContent).toContain('<img src=x onerror=alert(1)>')
  })

  it('refuses javascript:, vbscript: and non-image data: links', () => {
    for (const target of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'vbscript:msgbox(1)', 'data:text/html;base64,PHNjcmlwdD4=']) {
      expect(render(`[x](${target})`).querySelector('a'), target).toBeNull()
    }
  })

  it('keeps data: images of common formats and drops SVG data images', () => {
    expect(render('![dot](data:image/png;base64,iVBORw0KGgo=)').querySelector('img')?.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=')
    expect(render('![svg](data:image/svg+xml;base64,PHN2Zz4=)').querySelector('img')).toBeNull()
  })

  it('keeps single line breaks the model wrote', () => {
    expect(render('line one\nline two').querySelector('p > br')).not.toBeNull()
  })

  it('makes code blocks and tables reachable by keyboard, since they scroll sideways', () => {
    const fragment = render('```\nx\n```\n\n| a |\n|---|\n| 1 |')
    expect(fragment.querySelector('pre')?.getAttribute('tabindex')).toBe('0')
    expect(fragment.querySelector('table')?.getAttribute('tabindex')).toBe('0')
  })

  it('renders an empty reply as nothing', () => {
    expect(renderMarkdown('')).toBe('')
  })
})
