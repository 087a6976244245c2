import { computed, onMounted, onScopeDispose, shallowRef, watch, type Ref } from 'vue'
import { isMarkdownCached, renderMarkdownCached } from '~/utils/chat/markdown-cache'

/** Milliseconds of markdown work (parse + sanitise) per frame for blocks that arrived in a burst. */
export const BLOCK_RENDER_BUDGET_MS = 8

/** Blocks a message renders before it mounts, whatever the time they take. */
const MOUNT_BLOCKS = 4
/** A frame longer than this (from one advance to the next) is a long task the user may feel. */
const SLOW_FRAME_MS = 40

/** A block to show: its source, and whether it is final (else it is the moving tail, shown with the caret). */
export interface ShownBlock {
  source: string
  finished: boolean
}

/**
 * Blocks of a reply that grows, shown as fast as the page can render them without a long task. At loopback
 * speed a whole reply can arrive between two frames; rendering its hundreds of new blocks at once blocked the
 * page for hundreds of ms. Here each frame renders new finished blocks (into the markdown cache) for at most
 * BLOCK_RENDER_BUDGET_MS (less while frames are slow), shows those, and the first block not rendered yet as the moving tail; the next frames
 * go on until every block is shown, also after the stream ended. A message that mounts finished shows every block
 * at once (opening a chat is not this path).
 */
export function useProgressiveBlocks(blocks: Ref<string[]>, streaming: Ref<boolean>) {
  /** Blocks shown as final; the rest wait for the next frames. */
  const rendered = shallowRef(streaming.value ? 0 : Number.POSITIVE_INFINITY)
  /** Blocks that will not change any more. */
  const final = computed(() => (streaming.value ? Math.max(0, blocks.value.length - 1) : blocks.value.length))
  const behind = computed(() => rendered.value < final.value)

  const shown = computed<ShownBlock[]>(() => {
    const all = blocks.value
    if (!behind.value) return all.map((source, index) => ({ source, finished: !streaming.value || index < all.length - 1 }))
    return all.slice(0, rendered.value + 1).map((source, index) => ({ source, finished: index < rendered.value }))
  })

  let frame: number | undefined
  let mounted = false
  let budget = BLOCK_RENDER_BUDGET_MS

  /**
   * The budget follows the frames: the page's own work for the blocks (inserting, styling and laying them out) comes
   * on top of ours, and a busy machine makes all of it slower. A frame that took long halves the next budget; a
   * quick one gives a millisecond back.
   */
  function adaptBudget(sinceLastAdvance: number) {
    if (sinceLastAdvance > SLOW_FRAME_MS && sinceLastAdvance < 4 * SLOW_FRAME_MS) budget = Math.max(1, budget / 2)
    else if (sinceLastAdvance < 2 * 16.7) budget = Math.min(BLOCK_RENDER_BUDGET_MS, budget + 1)
  }
  onMounted(() => (mounted = true))
  let lastAdvance = Number.NEGATIVE_INFINITY
  const now = () => performance.now()

  /**
   * Renders the next final blocks for at most the budget. The block on screen as the moving tail is not rendered
   * here: its component keeps its last rendering and caches that when the block turns final.
   */
  function advance() {
    if (!behind.value) return
    const started = now()
    adaptBudget(started - lastAdvance)
    lastAdvance = started
    const all = blocks.value
    const from = rendered.value
    let next = mounted ? from + 1 : from
    // Before the first render, blocks already in the cache (a message scrolled back into view) and the first few are
    // rendered whatever the time, so a message mounts with its text; a burst beyond them waits for the next frames.
    const beforeMount = (index: number) => !mounted && (index < MOUNT_BLOCKS || isMarkdownCached(all[index]!))
    while (next < final.value && (next === from || beforeMount(next) || now() - lastAdvance < budget)) {
      renderMarkdownCached(all[next]!)
      next++
    }
    rendered.value = Math.min(next, final.value)
    scheduleFrame()
  }

  function scheduleFrame() {
    if (frame !== undefined || !behind.value) return
    frame = requestAnimationFrame(() => {
      frame = undefined
      // The page's own update already rendered blocks in this frame: wait for the next one.
      if (now() - lastAdvance < budget) return scheduleFrame()
      advance()
    })
  }

  // Before the render: the new blocks of this update get this frame's budget.
  watch([blocks, streaming], advance, { flush: 'pre', immediate: true })
  onScopeDispose(() => {
    if (frame !== undefined) cancelAnimationFrame(frame)
  })

  return { shown, behind }
}
