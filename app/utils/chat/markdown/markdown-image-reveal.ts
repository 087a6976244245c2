import { REMOTE_IMAGE_CLASS } from './markdown-images'

/**
 * The click half of held-back remote images (see `markdown-images.ts`): turning one placeholder into the image.
 * The URL is read back from the placeholder's `data-remote-src` and checked again here, so even a placeholder that
 * did not come from our renderer can only ever load an http(s) image.
 */

const PLACEHOLDER_SELECTOR = `button.${REMOTE_IMAGE_CLASS}[data-remote-src]`

/** The placeholder's URL if it is an absolute http(s) URL, else undefined. */
export function remoteImageUrl(value: string | null | undefined): URL | undefined {
  if (!value) return undefined
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined
  }
  catch {
    return undefined
  }
}

/** The placeholder button an event happened on, if it lies inside `root`. */
export function placeholderFromEvent(event: Event, root: Element): HTMLButtonElement | null {
  const target = event.target
  if (!target || typeof (target as Element).closest !== 'function') return null
  const button = (target as Element).closest<HTMLButtonElement>(PLACEHOLDER_SELECTOR)
  return button && root.contains(button) ? button : null
}

/** Every placeholder under `root`, in document order. */
export function remoteImagePlaceholders(root: ParentNode): HTMLButtonElement[] {
  return Array.from(root.querySelectorAll<HTMLButtonElement>(PLACEHOLDER_SELECTOR))
}

/** Identifies a placeholder within its block across re-renders: its position and its URL. */
export function placeholderKey(button: HTMLButtonElement): string {
  return `${button.getAttribute('data-remote-image') ?? ''} ${button.getAttribute('data-remote-src') ?? ''}`
}

/** Options of `revealRemoteImage`. */
export interface RevealRemoteImageOptions {
  /** Move focus to the loaded image (or the link around it), so a keyboard user keeps their place. @default true */
  focus?: boolean
}

/**
 * Loads the image one placeholder stands for, in its place: where the placeholder was, or, for an image in a link,
 * where the link shows its alt text (the placeholder is then removed). Only this image loads.
 * @returns the new image, or null when the placeholder holds no http(s) URL (nothing is loaded then)
 */
export function revealRemoteImage(button: HTMLButtonElement, root: ParentNode, options: RevealRemoteImageOptions = {}): HTMLImageElement | null {
  const { focus = true } = options
  const url = remoteImageUrl(button.getAttribute('data-remote-src'))
  if (!url) return null
  const index = button.getAttribute('data-remote-image')
  const slot = index && /^\d+$/.test(index) ? root.querySelector(`[data-remote-image-target="${index}"]`) : null
  const document = button.ownerDocument
  const image = document.createElement('img')
  image.alt = button.getAttribute('data-alt') ?? ''
  // The image host learns that someone looked, but not from which page or chat.
  image.referrerPolicy = 'no-referrer'
  image.decoding = 'async'
  image.className = `${REMOTE_IMAGE_CLASS}-loaded`
  image.addEventListener('error', () => {
    const note = document.createElement('span')
    note.className = `${REMOTE_IMAGE_CLASS}-failed`
    note.textContent = `Could not load the image from ${url.host}`
    image.replaceWith(note)
  }, { once: true })
  // src last: the request starts here, on the user's click.
  image.src = url.href
  if (slot) {
    slot.replaceWith(image)
    button.remove()
  }
  else {
    button.replaceWith(image)
  }
  if (focus) {
    const link = image.closest('a')
    if (link) {
      link.focus()
    }
    else {
      image.tabIndex = -1
      image.focus()
    }
  }
  return image
}
