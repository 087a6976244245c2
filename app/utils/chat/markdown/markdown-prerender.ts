import { isWriting } from '~/db/message-status'
import type { MessageRecord } from '~/db/types'
import { splitMarkdownBlocks } from './markdown-blocks'
import { isMarkdownCached, renderMarkdownCached } from './markdown-cache'

/** A pre-render under way (until it is cancelled or done). */
export interface MarkdownPrerender {
  cancel: () => void
}

export interface PrerenderMarkdownOptions {
  /** Most work done in one idle period (or one timer task where there is no `requestIdleCallback`), ms. @default 8 */
  sliceMs?: number
}

/** Finished assistant replies, newest first: the list mounts them as the user scrolls up from the bottom. */
function* blocksToWarm(rows: readonly MessageRecord[]): Generator<string> {
  for (let index = rows.length - 1; index >= 0; index--) {
    const row = rows[index]!
    if (row.role !== 'assistant' || !row.content || isWriting(row.status)) continue
    for (const block of splitMarkdownBlocks(row.content)) if (!isMarkdownCached(block)) yield block
  }
}

/**
 * Renders the markdown of `rows` into the block cache when the browser is idle, a few milliseconds at a time, so a
 * turn that scrolls into view mounts with its HTML ready instead of parsing and sanitising it during the scroll
 * (each wheel turn up a long chat mounted a dozen replies in one 50–120 ms task). Newest rows first.
 */
export function prerenderMarkdown(rows: readonly MessageRecord[], options: PrerenderMarkdownOptions = {}): MarkdownPrerender {
  const { sliceMs = 8 } = options
  const blocks = blocksToWarm(rows)
  let cancelled = false
  let handle: { idle: number } | { timer: ReturnType<typeof setTimeout> } | undefined

  const work = (deadline?: IdleDeadline) => {
    handle = undefined
    const started = performance.now()
    const left = () => Math.min(deadline ? deadline.timeRemaining() : sliceMs, sliceMs - (performance.now() - started))
    while (!cancelled && left() > 0) {
      const next = blocks.next()
      if (next.done) return
      renderMarkdownCached(next.value)
    }
    schedule()
  }
  const schedule = () => {
    if (cancelled) return
    handle = typeof requestIdleCallback === 'function' ? { idle: requestIdleCallback(work) } : { timer: setTimeout(work, 16) }
  }

  schedule()
  return {
    cancel() {
      cancelled = true
      if (!handle) return
      if ('idle' in handle) cancelIdleCallback(handle.idle)
      else clearTimeout(handle.timer)
      handle = undefined
    },
  }
}
