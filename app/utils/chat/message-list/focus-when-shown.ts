/** How many frames to look for the element before giving up (the row is read from the store, then rendered). */
const MAX_FRAMES = 120

/**
 * Moves the focus to the first element matching one of `selectors` once it is in the page: after a branch switch the
 * row the user was on is replaced by its sibling's, and a keyboard user's focus follows to the same control there
 * instead of falling back to the page.
 */
export function focusWhenShown(selectors: readonly string[]): void {
  if (typeof document === 'undefined') return
  let frames = 0
  const look = () => {
    for (const selector of selectors) {
      const element = document.querySelector<HTMLElement>(selector)
      if (element) {
        element.focus()
        return
      }
    }
    if (++frames < MAX_FRAMES) requestAnimationFrame(look)
  }
  requestAnimationFrame(look)
}
