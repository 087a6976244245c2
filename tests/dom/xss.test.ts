import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { renderMarkdown, sanitizeHtml } from '~/utils/chat/markdown'

/**
 * Untrusted model and tool output must never yield active content. Every payload of the corpus is rendered in
 * several markdown positions, the HTML is put into a jsdom document (scripts do not run there), and the
 * resulting DOM is inspected.
 */

const corpus = resolve(process.cwd(), 'tests/fixtures/corpora/xss-vectors')
const vectors: string[] = JSON.parse(readFileSync(resolve(corpus, 'xss-vectors.json'), 'utf8'))
const owasp: { payload: string }[] = JSON.parse(readFileSync(resolve(corpus, 'owasp-xss-filter-evasion.json'), 'utf8'))
const dompurifyCases: { payload: string }[] = JSON.parse(readFileSync(resolve(corpus, 'dompurify-expect.json'), 'utf8'))

const ALLOWED_TAGS = new Set([
  'P', 'BR', 'HR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'STRONG', 'EM', 'S', 'DEL', 'CODE', 'PRE', 'BLOCKQUOTE',
  'UL', 'OL', 'LI', 'A', 'IMG', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD',
])
const ALLOWED_ATTRIBUTES = new Set(['href', 'title', 'alt', 'src', 'class', 'start', 'target', 'rel', 'tabindex', 'loading'])
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'background', 'poster', 'srcset', 'data'])

/** Browsers ignore control characters and whitespace inside a URL scheme: `java\tscript:` is still script. */
function normaliseUrl(value: string): string {
  return value.replace(/[\u0000-\u0020\u007f-\u00a0]+/g, '').toLowerCase()
}

/** Everything dangerous in rendered HTML, as readable findings (empty when safe). */
function findDanger(html: string): string[] {
  const host = document.createElement('div')
  host.innerHTML = html
  document.body.append(host)
  const findings: string[] = []
  try {
    for (const element of Array.from(host.querySelectorAll('*'))) {
      const tag = element.tagName.toUpperCase()
      if (['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'STYLE', 'FRAME', 'FRAMESET', 'BASE', 'META', 'LINK', 'SVG', 'MATH'].includes(tag)) findings.push(`<${tag.toLowerCase()}>`)
      if (tag === 'FORM' && element.hasAttribute('action')) findings.push('<form action>')
      if (!ALLOWED_TAGS.has(tag)) findings.push(`tag outside the allow-list: ${tag}`)
      for (const attribute of Array.from(element.attributes)) {
        const name = attribute.name.toLowerCase()
        if (name.startsWith('on')) findings.push(`${name} attribute`)
        if (name === 'srcdoc') findings.push('srcdoc attribute')
        if (name === 'style') findings.push('style attribute')
        if (!ALLOWED_ATTRIBUTES.has(name)) findings.push(`attribute outside the allow-list: ${name}`)
        const url = normaliseUrl(attribute.value)
        if (URL_ATTRIBUTES.has(name) || name.endsWith(':href')) {
          if (url.startsWith('javascript:') || url.startsWith('vbscript:')) findings.push(`${name}=${attribute.value.slice(0, 40)}`)
          if (url.startsWith('data:') && !(name === 'src' && /^data:image\/(?:png|gif|jpeg|webp);/.test(url))) findings.push(`${name}=data: URL`)
        }
      }
      if (tag === 'A' && element.hasAttribute('href') && element.getAttribute('rel') !== 'noopener noreferrer nofollow') findings.push('link without rel')
    }
  }
  finally {
    host.remove()
  }
  return findings
}

/** The markdown positions a payload is tried in. */
const CONTEXTS: Record<string, (payload: string) => string> = {
  'raw markdown': payload => payload,
  'inline in a paragraph': payload => `Here is the result: ${payload} — done.`,
  'code fence': payload => `\`\`\`html\n${payload}\n\`\`\``,
  'link target': payload => `[click](${payload})`,
  'link text with javascript: target': payload => `[${payload}](javascript:alert(1))`,
  'javascript: link': payload => `[x](javascript:${payload})`,
  'image': payload => `![${payload}](${payload})`,
  'tool result in a list': payload => `- result:\n\n  ${payload.split('\n').join('\n  ')}`,
}

const summary: string[] = []
afterAll(() => {
  console.log(`[xss] ${summary.join('; ')}`)
})

describe('rendering XSS payloads through renderMarkdown', () => {
  for (const [context, wrap] of Object.entries(CONTEXTS)) {
    it(`produces no active content for any of the ${vectors.length} payloads as ${context}`, () => {
      const failures: { payload: string, findings: string[] }[] = []
      for (const payload of vectors) {
        const findings = findDanger(renderMarkdown(wrap(payload)))
        if (findings.length > 0) failures.push({ payload, findings })
      }
      summary.push(`${context}: ${vectors.length - failures.length}/${vectors.length} safe`)
      expect(failures.slice(0, 5)).toEqual([])
    })
  }

  it(`produces no active content for the ${owasp.length} OWASP filter-evasion payloads`, () => {
    const unsafe = owasp.filter(({ payload }) => findDanger(renderMarkdown(payload)).length > 0)
    summary.push(`OWASP: ${owasp.length - unsafe.length}/${owasp.length} safe`)
    expect(unsafe).toEqual([])
  })
})

describe('sanitizeHtml on raw HTML (second wall, in case HTML ever reaches it directly)', () => {
  it(`leaves nothing active in any of the ${vectors.length} payloads`, () => {
    const failures = vectors.filter(payload => findDanger(sanitizeHtml(payload)).length > 0)
    summary.push(`sanitizeHtml raw: ${vectors.length - failures.length}/${vectors.length} safe`)
    expect(failures.slice(0, 5)).toEqual([])
  })

  it(`leaves nothing active in DOMPurify's own ${dompurifyCases.length} fixture payloads`, () => {
    const failures = dompurifyCases.filter(({ payload }) => findDanger(sanitizeHtml(payload)).length > 0)
    summary.push(`DOMPurify fixture: ${dompurifyCases.length - failures.length}/${dompurifyCases.length} safe`)
    expect(failures.slice(0, 5)).toEqual([])
  })

  it('keeps harmless markup and text around a removed script', () => {
    const host = document.createElement('div')
    host.innerHTML = sanitizeHtml('<p>Hello <strong>there</strong><script>alert(1)</script><img src=x onerror=alert(1)></p>')
    expect(host.querySelector('strong')?.textContent).toBe('there')
    expect(host.querySelector('script')).toBeNull()
    expect(host.querySelector('img')?.getAttribute('onerror')).toBeNull()
  })
})

describe('the inspector itself', () => {
  it('flags the kinds of markup it is meant to catch', () => {
    expect(findDanger('<script>alert(1)</script>')).toContain('<script>')
    expect(findDanger('<a href="java\tscript:alert(1)" rel="noopener noreferrer nofollow">x</a>').join()).toContain('href=')
    expect(findDanger('<img src="x" onerror="alert(1)">')).toContain('onerror attribute')
    expect(findDanger('<iframe srcdoc="x"></iframe>')).toContain('srcdoc attribute')
    expect(findDanger('<form action="https://x"></form>')).toContain('<form action>')
    expect(findDanger('<a href="data:text/html,x" rel="noopener noreferrer nofollow">x</a>')).toContain('href=data: URL')
    expect(findDanger('<p>fine</p>')).toEqual([])
  })
})
