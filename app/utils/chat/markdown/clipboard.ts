/**
 * Copying text for the user: the clipboard write and the screen-reader announcement of its outcome.
 *
 * `navigator.clipboard.writeText` only exists in a secure context and may be refused (permission, no focus); the
 * caller shows "Copy failed" then, never a false "Copied".
 */

/** How long "Copied" / "Copy failed" stays on a button, in ms. */
export const COPY_FEEDBACK_MS = 2000

/** What a copy came to. */
export type CopyOutcome = 'copied' | 'failed'

/** Writes `text` to the clipboard. @returns `'failed'` when the browser has no clipboard or refuses. */
export async function copyText(text: string): Promise<CopyOutcome> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard
  if (!clipboard || typeof clipboard.writeText !== 'function') return 'failed'
  try {
    await clipboard.writeText(text)
    return 'copied'
  }
  catch (error) {
    console.warn('[plugboard] the browser refused the clipboard write', error)
    return 'failed'
  }
}

let region: HTMLElement | undefined
let pending: ReturnType<typeof setTimeout> | undefined

/**
 * Says `message` through one polite live region for the page (made on first use). The region is emptied first and
 * filled a moment later: screen readers announce a change, and "Copied" twice in a row is otherwise no change.
 */
export function announce(message: string): void {
  if (typeof document === 'undefined') return
  if (!region || !region.isConnected) {
    region = document.createElement('div')
    region.setAttribute('role', 'status')
    region.setAttribute('aria-live', 'polite')
    region.setAttribute('data-testid', 'copy-announcer')
    region.className = 'sr-only'
    document.body.append(region)
  }
  region.textContent = ''
  if (pending !== undefined) clearTimeout(pending)
  pending = setTimeout(() => {
    pending = undefined
    if (region) region.textContent = message
  }, 100)
}

/** The words for an outcome, on a button and for screen readers. */
export function copyOutcomeLabel(outcome: CopyOutcome): string {
  return outcome === 'copied' ? 'Copied' : 'Copy failed'
}
