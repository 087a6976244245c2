// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { renderMarkdown, sanitizeHtml } from '~/utils/chat/markdown/markdown'

// DOMPurify needs a DOM. Where there is none (server rendering, node), nothing may come out as HTML.
describe('renderMarkdown without a DOM', () => {
  it('returns the source as escaped text instead of unsanitised HTML', () => {
    const html = renderMarkdown('**hi** <script>alert(1)</script>\n[x](https://e.com)')
    expect(html).toBe('<p>**hi** &lt;script&gt;alert(1)&lt;/script&gt;<br>[x](https://e.com)</p>')
  })

  it('escapes HTML handed to sanitizeHtml', () => {
    expect(sanitizeHtml('<img src=x onerror="alert(1)">')).toBe('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;')
  })
})
