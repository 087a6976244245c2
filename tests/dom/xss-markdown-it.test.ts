import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '~/utils/chat/markdown/markdown'
import { findDanger, loadCorpusFile, unsafePayloads } from './xss-inspect'

interface MarkdownItCase { title: string | null, markdown: string, expected_html: string }
const markdownItCases = loadCorpusFile<MarkdownItCase[]>('markdown-it-xss.json')
const owasp = loadCorpusFile<{ payload: string }[]>('owasp-xss-filter-evasion.json')

/**
 * Our output without what we add on purpose (link target/rel, tabindex, lazy images, the `language-` class prefix
 * the fixture was made without, code blocks' Copy buttons and their wrapper), for comparing with markdown-it's.
 */
function withoutOurAttributes(html: string): string {
  const template = document.createElement('template')
  template.innerHTML = html
  for (const wrapper of Array.from(template.content.querySelectorAll('div.chat-code-block'))) wrapper.replaceWith(wrapper.querySelector(':scope > pre')!)
  for (const element of Array.from(template.content.querySelectorAll('*'))) {
    for (const name of ['target', 'rel', 'tabindex', 'loading']) element.removeAttribute(name)
    const className = element.getAttribute('class')
    if (className?.startsWith('language-')) element.setAttribute('class', className.slice('language-'.length))
  }
  return template.innerHTML.trim()
}

function normalised(html: string): string {
  const template = document.createElement('template')
  template.innerHTML = html
  return template.innerHTML.trim()
}

describe('markdown-it XSS fixture', () => {
  it.each(markdownItCases.map((entry, index) => [entry.title ?? `case ${index + 1}`, entry] as const))(
    'renders %s as markdown-it does, with nothing active',
    (_title, entry) => {
      const html = renderMarkdown(entry.markdown)
      expect(findDanger(html)).toEqual([])
      expect(withoutOurAttributes(html)).toBe(normalised(entry.expected_html))
    },
  )
})

describe('OWASP XSS filter-evasion cheat sheet', () => {
  it(`renders none of the ${owasp.length} payloads as active content`, () => {
    const unsafe = unsafePayloads(owasp.map(entry => entry.payload), renderMarkdown)
    console.log(`[xss] OWASP: ${owasp.length - unsafe.length}/${owasp.length} safe`)
    expect(unsafe).toEqual([])
  }, 60_000)
})
