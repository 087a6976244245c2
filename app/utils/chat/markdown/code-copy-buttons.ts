import { announce, COPY_FEEDBACK_MS, copyOutcomeLabel, copyText } from './clipboard'

/**
 * A Copy button on every code block of rendered markdown.
 *
 * Like the remote-image placeholders (`markdown-images.ts`), the button is made with DOM calls after DOMPurify has
 * run, so the allow-list stays free of buttons, divs and data attributes: nothing a model writes can make one. The
 * button carries no text to copy; a click copies the `textContent` of the `<code>` in the `<pre>` right after it in
 * its own wrapper, so even a forged button could only copy the code block it sits in. One delegated listener per
 * markdown block (ChatMarkdownBlock) handles the clicks; the buttons live in the cached HTML.
 */

/** Class of the wrapper around a `<pre>` and of its button (styled in ChatMarkdownBlock.vue). */
export const CODE_BLOCK_CLASS = 'chat-code-block'
export const CODE_COPY_CLASS = 'chat-code-copy'
const LABEL_CLASS = 'chat-code-copy-label'
const IDLE_LABEL = 'Copy code'

const BUTTON_SELECTOR = `div.${CODE_BLOCK_CLASS} > button.${CODE_COPY_CLASS}[data-code-copy]`

function createButton(document: Document): HTMLButtonElement {
  const button = document.createElement('button')
  button.setAttribute('type', 'button')
  button.setAttribute('class', CODE_COPY_CLASS)
  button.setAttribute('data-code-copy', '')
  button.setAttribute('title', IDLE_LABEL)
  const label = document.createElement('span')
  label.setAttribute('class', LABEL_CLASS)
  label.textContent = IDLE_LABEL
  button.append(label)
  return button
}

/**
 * Wraps every `<pre>` holding a `<code>` under `root` with a Copy button. Runs on DOMPurify's output, before it is
 * serialised. @returns how many buttons were added
 */
export function addCodeCopyButtons(root: ParentNode): number {
  let added = 0
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    if (!pre.querySelector(':scope > code')) continue
    const document = pre.ownerDocument
    const wrapper = document.createElement('div')
    wrapper.setAttribute('class', CODE_BLOCK_CLASS)
    pre.replaceWith(wrapper)
    wrapper.append(createButton(document), pre)
    added++
  }
  return added
}

/** The Copy button an event happened on, if it lies inside `root`. */
export function codeCopyButtonFromEvent(event: Event, root: Element): HTMLButtonElement | null {
  const target = event.target
  if (!target || typeof (target as Element).closest !== 'function') return null
  const button = (target as Element).closest<HTMLButtonElement>(BUTTON_SELECTOR)
  return button && root.contains(button) ? button : null
}

/**
 * The code a button copies: its block's code as written, without the line break the fence adds at the end (the
 * highlighted spans hold the same text). Undefined when the button sits in no code block.
 */
export function codeOfCopyButton(button: Element): string | undefined {
  const pre = button.nextElementSibling
  if (!pre || pre.tagName !== 'PRE' || !button.parentElement?.classList.contains(CODE_BLOCK_CLASS)) return undefined
  const code = pre.querySelector(':scope > code')
  if (!code) return undefined
  return (code.textContent ?? '').replace(/\n$/, '')
}

const resetTimers = new WeakMap<HTMLButtonElement, ReturnType<typeof setTimeout>>()

/** Copies the button's code and shows "Copied" (or "Copy failed") on it for COPY_FEEDBACK_MS. */
export async function copyCodeBlock(button: HTMLButtonElement): Promise<void> {
  const code = codeOfCopyButton(button)
  if (code === undefined) return
  const outcome = await copyText(code)
  const label = button.querySelector(`.${LABEL_CLASS}`)
  const text = copyOutcomeLabel(outcome)
  button.setAttribute('data-copied', outcome)
  if (label) label.textContent = text
  announce(outcome === 'copied' ? 'Code copied' : 'Copy failed')
  const previous = resetTimers.get(button)
  if (previous !== undefined) clearTimeout(previous)
  resetTimers.set(button, setTimeout(() => {
    resetTimers.delete(button)
    button.removeAttribute('data-copied')
    if (label) label.textContent = IDLE_LABEL
  }, COPY_FEEDBACK_MS))
}
