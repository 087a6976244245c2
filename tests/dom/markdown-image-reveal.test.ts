import { afterEach, describe, expect, it } from 'vitest'
import { renderMarkdown } from '~/utils/chat/markdown/markdown'
import { placeholderFromEvent, remoteImagePlaceholders, revealRemoteImage } from '~/utils/chat/markdown/markdown-image-reveal'

/** Rendered markdown attached to the page, as ChatMarkdownBlock shows it. */
function mount(source: string): HTMLElement {
  const root = document.createElement('div')
  root.innerHTML = renderMarkdown(source)
  document.body.append(root)
  return root
}

afterEach(() => {
  document.body.replaceChildren()
})

describe('loading a held-back image on request', () => {
  it('loads that image in place of its button, without a referrer, and leaves the others waiting', () => {
    const root = mount('![first](https://a.example/1.png?data=x) ![second](https://b.example/2.png)')
    const [first] = remoteImagePlaceholders(root)
    const image = revealRemoteImage(first!, root)!
    expect(image.isConnected).toBe(true)
    expect(image.getAttribute('src')).toBe('https://a.example/1.png?data=x')
    expect(image.alt).toBe('first')
    expect(image.referrerPolicy).toBe('no-referrer')
    expect(root.querySelectorAll('img')).toHaveLength(1)
    expect(remoteImagePlaceholders(root).map(button => button.getAttribute('data-remote-src'))).toEqual(['https://b.example/2.png'])
  })

  it('moves focus to the loaded image, so a keyboard user keeps their place', () => {
    const root = mount('![chart](https://a.example/1.png)')
    const button = remoteImagePlaceholders(root)[0]!
    button.focus()
    const image = revealRemoteImage(button, root)!
    expect(document.activeElement).toBe(image)
  })

  it('loads a linked image inside its link, removes the button, and focuses the link', () => {
    const root = mount('[![Build status](https://ci.example/badge.svg)](https://ci.example/run)')
    const image = revealRemoteImage(remoteImagePlaceholders(root)[0]!, root)!
    const link = root.querySelector('a')!
    expect(image.parentElement).toBe(link)
    expect(link.textContent).toBe('')
    expect(root.querySelector('button')).toBeNull()
    expect(document.activeElement).toBe(link)
  })

  it('loads nothing from a placeholder whose URL is not http(s), whatever put it there', () => {
    const root = mount('![chart](https://a.example/1.png)')
    for (const url of ['javascript:alert(1)', 'data:image/svg+xml,<svg onload=alert(1)>', '//a.example/x.png', '', 'https://[bad']) {
      const button = remoteImagePlaceholders(root)[0]!
      button.setAttribute('data-remote-src', url)
      expect(revealRemoteImage(button, root), url).toBeNull()
      expect(root.querySelector('img'), url).toBeNull()
    }
  })

  it('says so when the image cannot be loaded', () => {
    const root = mount('![chart](https://a.example/1.png)')
    const image = revealRemoteImage(remoteImagePlaceholders(root)[0]!, root)!
    image.dispatchEvent(new Event('error'))
    expect(root.querySelector('img')).toBeNull()
    expect(root.textContent).toContain('Could not load the image from a.example')
  })

  it('finds the placeholder a click landed on, even on the text inside it, and only inside its block', () => {
    const root = mount('![chart](https://a.example/1.png)')
    const other = mount('![other](https://b.example/2.png)')
    const host = root.querySelector('.chat-remote-image-host')!
    let found: HTMLButtonElement | null = null
    root.addEventListener('click', (event) => { found = placeholderFromEvent(event, root) })
    host.dispatchEvent(new MouseEvent('click', { bubbles: true }))
    expect(found).toBe(remoteImagePlaceholders(root)[0])
    const event = new MouseEvent('click', { bubbles: true })
    other.querySelector('button')!.dispatchEvent(event)
    expect(placeholderFromEvent(event, root)).toBeNull()
  })
})
