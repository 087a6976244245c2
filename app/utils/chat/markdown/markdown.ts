import MarkdownIt from 'markdown-it'
import createDOMPurify from 'dompurify'
import type { Config, DOMPurify } from 'dompurify'
import { holdBackRemoteImages } from './markdown-images'
import { addCodeCopyButtons } from './code-copy-buttons'

/**
 * Safe markdown for untrusted model and tool output.
 *
 * Two independent walls: markdown-it runs with `html: false` (raw HTML becomes text) and its own link validation
 * (no javascript:, vbscript:, file:, and data: only for common images); then DOMPurify, with an allow-list of the
 * tags and attributes markdown-it can produce, sanitises the result in the browser. Without a DOM (server, node)
 * we cannot sanitise, so we return escaped text instead of HTML. Remote images are then held back behind a click
 * (see `markdown-images.ts`): a model must not be able to make the browser fetch a URL of its choosing.
 */

const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false })

const ALIGN_CLASSES = { left: 'text-left', right: 'text-right', center: 'text-center' } as const

// Table alignment arrives as `style="text-align:..."`; we allow no style attribute, so turn it into a class.
for (const rule of ['th_open', 'td_open'] as const) {
  markdown.renderer.rules[rule] = (tokens, index, options, _env, self) => {
    const token = tokens[index]!
    const style = token.attrGet('style')
    if (style) {
      const align = /text-align:\s*(left|right|center)/.exec(String(style))?.[1]
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style')
      if (align) token.attrJoin('class', ALIGN_CLASSES[align as keyof typeof ALIGN_CLASSES])
    }
    return self.renderToken(tokens, index, options)
  }
}

/** Tags markdown-it emits with html off (plus nothing else). */
const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 's', 'del', 'code', 'pre', 'blockquote',
  'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
]
const ALLOWED_ATTR = ['href', 'title', 'alt', 'src', 'class', 'start', 'target', 'rel']

const PURIFY_CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  // http(s), mailto, tel, and relative URLs; data: is only let through by DOMPurify for <img src>.
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
}

const SAFE_IMAGE_DATA_URL = /^data:image\/(?:png|gif|jpeg|webp);/i

let purifier: DOMPurify | null | undefined

/** A private DOMPurify instance (hooks stay ours), or null when there is no DOM to sanitise with. */
function getPurifier(): DOMPurify | null {
  if (purifier !== undefined) return purifier
  if (typeof window === 'undefined' || typeof window.document === 'undefined') return null
  const instance = createDOMPurify(window)
  if (!instance.isSupported || typeof instance.sanitize !== 'function') {
    purifier = null
    return purifier
  }
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank')
      node.setAttribute('rel', 'noopener noreferrer nofollow')
    }
    else if (node.nodeName === 'A') {
      node.removeAttribute('target')
    }
    // Code and tables scroll sideways on phones: keyboard users need to reach them (WCAG scrollable region).
    if (node.nodeName === 'PRE' || node.nodeName === 'TABLE') node.setAttribute('tabindex', '0')
    if (node.nodeName === 'IMG') {
      const src = node.getAttribute('src') ?? ''
      if (/^\s*data:/i.test(src) && !SAFE_IMAGE_DATA_URL.test(src.trim())) node.removeAttribute('src')
      node.setAttribute('loading', 'lazy')
    }
  })
  purifier = instance
  return purifier
}

/** Escapes text for use as HTML text content. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/**
 * DOMPurify's output with remote images held back. The work happens in DOMPurify's inert parsing document, where
 * nothing loads. Every input takes this path (no "has no <img" shortcut): raw HTML can make an image without
 * spelling `<img`, e.g. `<image src=...>`.
 */
function purify(instance: DOMPurify, html: string, options: { codeCopy?: boolean } = {}): string {
  const fragment = instance.sanitize(html, { ...PURIFY_CONFIG, RETURN_DOM_FRAGMENT: true }) as DocumentFragment | null
  // DOMPurify gives null where its string output is empty (input that parses to no body, e.g. a frameset).
  if (!fragment) return ''
  holdBackRemoteImages(fragment, window.document.baseURI)
  if (options.codeCopy) addCodeCopyButtons(fragment)
  const container = fragment.ownerDocument.createElement('div')
  container.append(fragment)
  return container.innerHTML
}

/**
 * Sanitises HTML with the chat allow-list, remote images held back. Without a DOM (server, node) returns the input
 * escaped as text. Exported so other HTML sources take the same path; markdown goes through `renderMarkdown`.
 */
export function sanitizeHtml(html: string): string {
  const instance = getPurifier()
  if (!instance) return escapeHtml(html)
  return purify(instance, html)
}

/**
 * Renders untrusted markdown to sanitised HTML. Code fences come out as `<pre><code class="language-x">`,
 * unhighlighted (see `highlightCodeBlocks`); links open in a new tab with `rel="noopener noreferrer nofollow"`;
 * remote images become "Load image from host" buttons (see `holdBackRemoteImages`); each code block gets a Copy
 * button (see `addCodeCopyButtons`).
 * On the server (no DOM) returns the source as escaped text in a `<p>` with line breaks kept.
 */
export function renderMarkdown(source: string): string {
  const instance = getPurifier()
  if (!instance) return source ? `<p>${escapeHtml(source).replace(/\n/g, '<br>')}</p>` : ''
  return purify(instance, markdown.render(source), { codeCopy: true })
}
