import { describe, expect, it } from 'vitest'
import { sanitizeHtml } from '~/utils/chat/markdown/markdown'
import { findDanger, loadCorpusFile, loadXssVectors, unsafePayloads } from './xss-inspect'

/** The second wall: even raw HTML handed straight to the sanitiser comes out inert. */
const vectors = loadXssVectors()
const dompurifyCases = loadCorpusFile<{ payload: string }[]>('dompurify-expect.json')

describe('sanitizeHtml with raw HTML payloads', () => {
  it(`leaves nothing active in any of the ${vectors.length} payloads`, () => {
    const unsafe = unsafePayloads(vectors, sanitizeHtml)
    console.log(`[xss] sanitizeHtml on raw HTML: ${vectors.length - unsafe.length}/${vectors.length} safe`)
    expect(unsafe.slice(0, 5)).toEqual([])
  }, 180_000)

  it(`leaves nothing active in DOMPurify's own ${dompurifyCases.length} fixture payloads`, () => {
    const unsafe = unsafePayloads(dompurifyCases.map(entry => entry.payload), sanitizeHtml)
    console.log(`[xss] DOMPurify fixture through sanitizeHtml: ${dompurifyCases.length - unsafe.length}/${dompurifyCases.length} safe`)
    expect(unsafe).toEqual([])
  }, 60_000)

  it('keeps harmless markup and text around what it removes', () => {
    const template = document.createElement('template')
    template.innerHTML = sanitizeHtml('<p>Hello <strong>there</strong><script>alert(1)</script><img src=x onerror=alert(1)></p>')
    expect(template.content.querySelector('strong')?.textContent).toBe('there')
    expect(template.content.querySelector('script')).toBeNull()
    expect(template.content.querySelector('img')?.hasAttribute('onerror')).toBe(false)
  })
})

describe('the XSS inspector used by these tests', () => {
  it('flags each kind of active content it is meant to catch', () => {
    expect(findDanger('<script>alert(1)</script>')).toContain('<script>')
    expect(findDanger('<a href="java\tscript:alert(1)" rel="noopener noreferrer nofollow">x</a>').join()).toContain('href=java')
    expect(findDanger('<a href="VBScript:x" rel="noopener noreferrer nofollow">x</a>').join()).toContain('href=VBScript')
    expect(findDanger('<img src="x" onerror="alert(1)">')).toContain('onerror attribute')
    expect(findDanger('<iframe srcdoc="x"></iframe>')).toContain('srcdoc attribute')
    expect(findDanger('<form action="https://x"></form>')).toContain('<form action>')
    expect(findDanger('<style>*{}</style>')).toContain('<style>')
    expect(findDanger('<object data="x"></object><embed src="x">')).toEqual(expect.arrayContaining(['<object>', '<embed>']))
    expect(findDanger('<a href="data:text/html,x" rel="noopener noreferrer nofollow">x</a>')).toContain('href=data: URL')
    expect(findDanger('<p>fine <a href="https://example.com" rel="noopener noreferrer nofollow">link</a></p>')).toEqual([])
  })

  it('flags an image that would load from another host without a click, and nothing posing as our placeholder', () => {
    expect(findDanger('<img src="https://evil.example/x.png">').join()).toContain('remote image')
    expect(findDanger('<img src="//evil.example/x.png">').join()).toContain('remote image')
    expect(findDanger('<img src="x.png">')).toEqual([])
    expect(findDanger('<button type="button" class="chat-remote-image" data-remote-image="0" data-remote-src="javascript:alert(1)">x</button>').join()).toContain('not http(s)')
    expect(findDanger('<button type="button" class="chat-remote-image" data-remote-image="0" data-remote-src="https://a.example/" onfocus="x">x</button>').join()).toContain('onfocus')
    expect(findDanger('<button type="button" class="chat-remote-image" data-remote-image="0" data-remote-src="https://a.example/"><img src="https://a.example/"></button>').join()).toContain('inside a placeholder')
    expect(findDanger('<span class="chat-remote-image-text" data-x="1">x</span>').join()).toContain('span that is not ours')
    expect(findDanger(sanitizeHtml('<p><img alt="chart" src="https://evil.example/x.png"></p>'))).toEqual([])
  })
})
