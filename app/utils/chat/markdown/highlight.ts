import type { CodeToken } from './highlight/highlight-tokens'
import { resolveLanguage } from './highlight/highlight-languages'
import { canHighlightCode, tokenizeInWorker } from './highlight/highlight-client'
import { createTextKeyedLru } from './text-keyed-lru'

export { resolveLanguage }

/**
 * Syntax highlighting of rendered code blocks, off the page's thread.
 *
 * A block shows as plain text first. Its tokens come from shiki in a module Web Worker (`highlight/`; under the
 * app's CSP `worker-src 'self'`), and stay plain where there is no Worker (the server, jsdom); tokens are cached by
 * language and code, so a block scrolled back into view or rendered again paints at once. Painting rewrites the text of the
 * existing `<code>` into token spans built with DOM calls (textContent + CSS custom properties), never through
 * HTML strings.
 */

/** Longer code stays plain text (its tokens would be a long task to paint and a long wait to make). */
export const MAX_HIGHLIGHT_CHARS = 100_000
/** Characters of code whose tokens are kept (least recently used forgotten first). */
const cache = createTextKeyedLru<CodeToken[][]>(2_000_000)

async function tokensFor(code: string, language: string): Promise<CodeToken[][]> {
  const key = `${language}\n${code}`
  const hit = cache.get(key)
  if (hit) return hit
  const tokens = await tokenizeInWorker(code, language)
  cache.set(key, tokens)
  return tokens
}

function languageOf(code: Element): string | undefined {
  for (const name of Array.from(code.classList)) {
    if (name.startsWith('language-')) return resolveLanguage(name.slice('language-'.length))
  }
  return undefined
}

/** Replaces the text of one `<code>` with highlighted token spans (text only, styles as CSS variables). */
function paintTokens(code: HTMLElement, tokens: CodeToken[][]): void {
  const document = code.ownerDocument
  const fragment = document.createDocumentFragment()
  tokens.forEach((line, lineIndex) => {
    if (lineIndex > 0) fragment.append('\n')
    for (const token of line) {
      const span = document.createElement('span')
      span.className = 'shiki-token'
      span.textContent = token.content
      for (const [property, value] of Object.entries(token.style)) {
        if (property.startsWith('--shiki-')) span.style.setProperty(property, value)
      }
      fragment.append(span)
    }
  })
  code.replaceChildren(fragment)
  code.classList.add('shiki-highlighted')
}

/**
 * Token spans painted per animation frame at most: each is a new element the frame styles and lays out. A long
 * reply's code blocks get their tokens from the worker at about the same time; painted as they came, a frame had
 * 1,500 new spans to style (a 50 ms task on a busy machine). A block with more tokens than this is painted alone.
 */
export const PAINT_TOKENS_PER_FRAME = 600

let paintedThisFrame = 0
let frameHandle: number | ReturnType<typeof setTimeout> | undefined
const waitingToPaint: Array<{ tokens: number, go: () => void }> = []

function scheduleFrame() {
  if (frameHandle !== undefined) return
  const run = () => {
    frameHandle = undefined
    paintedThisFrame = 0
    paintWhatFits()
  }
  frameHandle = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(run) : setTimeout(run, 16)
}

function paintWhatFits() {
  while (waitingToPaint.length > 0 && (paintedThisFrame === 0 || paintedThisFrame + waitingToPaint[0]!.tokens <= PAINT_TOKENS_PER_FRAME)) {
    const next = waitingToPaint.shift()!
    paintedThisFrame += next.tokens
    next.go()
  }
  if (paintedThisFrame > 0 || waitingToPaint.length > 0) scheduleFrame()
}

/** Resolves when `tokens` more spans fit in this frame's painting (at once when they do), in the order asked. */
function frameRoomFor(tokens: number): Promise<void> {
  return new Promise((resolve) => {
    waitingToPaint.push({ tokens, go: resolve })
    paintWhatFits()
  })
}

/**
 * Highlights every `pre > code.language-*` under `root` that is not highlighted yet and is in a language we ship.
 * Each block is painted as soon as its tokens arrive and the frame has room for them (PAINT_TOKENS_PER_FRAME). Safe to
 * call repeatedly; resolves when done. Failures leave the plain code in place.
 * @returns how many blocks were highlighted
 */
export async function highlightCodeBlocks(root: ParentNode): Promise<number> {
  const blocks = Array.from(root.querySelectorAll<HTMLElement>('pre > code[class*="language-"]'))
    .filter(code => !code.classList.contains('shiki-highlighted'))
    .map(code => ({ code, language: languageOf(code) }))
    .filter((block): block is { code: HTMLElement, language: string } => block.language !== undefined)
  if (blocks.length === 0 || !canHighlightCode()) return 0
  const painted = await Promise.all(blocks.map(async ({ code, language }) => {
    const text = code.textContent ?? ''
    if (text.length > MAX_HIGHLIGHT_CHARS) return 0
    try {
      const tokens = await tokensFor(text, language)
      await frameRoomFor(tokens.reduce((count, line) => count + line.length, 0))
      // The block may have been re-rendered, removed or changed while the tokens were made or waited to be painted.
      if (!code.isConnected || code.classList.contains('shiki-highlighted') || code.textContent !== text) return 0
      paintTokens(code, tokens)
      return 1
    }
    catch (error) {
      console.warn('[plugboard] code highlighting failed; showing plain code', error)
      return 0
    }
  }))
  return painted.reduce<number>((sum, count) => sum + count, 0)
}
