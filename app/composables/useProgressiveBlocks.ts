import { computed, onMounted, onScopeDispose, shallowRef, watch, type Ref } from 'vue'
import { isMarkdownCached, renderMarkdownCached } from '~/utils/chat/markdown/markdown-cache'
import { markdownTaskBudgetSpent } from '~/utils/chat/markdown/markdown-task-budget'

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
 * go on until every block is shown, also after the stream ended. A message that mounts finished shows its blocks at
 * once, unless the task mounting it already spent its markdown budget (opening a chat mounts several turns): then
 * the rest follow in the next frames the same way, without a caret.
 */
export interface UseProgressiveBlocksOptions {
  /**
   * A message that mounts finished shows its first blocks (4) whatever the task's markdown budget, the rest as the
   * budget allows. @default false
   */
  eager?: boolean
}

export function useProgressiveBlocks(blocks: Ref<string[]>, streaming: Ref<boolean>, options: UseProgressiveBlocksOptions = {}) {
  const { eager = false } = options
  /**
   * The message mounted finished, but the task that mounts it (opening a chat mounts several turns at once) had used
   * its markdown budget: the blocks not rendered in time follow in the next frames, with no moving tail and no caret.
   */
  const mountedFinished = !streaming.value
  /** Blocks shown as final; the rest wait for the next frames. */
  const rendered = shallowRef(streaming.value ? 0 : renderedWithinTaskBudget(blocks.value, eager ? MOUNT_BLOCKS : 0))
  /** Blocks that will not change any more. */
  const final = computed(() => (streaming.value ? Math.max(0, blocks.value.length - 1) : blocks.value.length))
  const behind = computed(() => rendered.value < final.value)
  /** The last block shown is the moving tail (a reply arriving, or shown over a few frames after it arrived). */
  const tail = computed(() => streaming.value || (behind.value && !mountedFinished))

  const shown = computed<ShownBlock[]>(() => {
    const all = blocks.value
    if (!behind.value) return all.map((source, index) => ({ source, finished: !streaming.value || index < all.length - 1 }))
    if (!tail.value) return all.slice(0, rendered.value).map(source => ({ source, finished: true }))
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
    // Deferred at mount: nothing before the first frame (the budget was spent), and no tail already on screen.
    if (!tail.value && !mounted) return scheduleFrame()
    let next = mounted && tail.value ? from + 1 : from
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

  return { shown, behind, tail }
}

/**
 * How many leading blocks of a message that mounts finished are shown at once: the first `atLeast`, those already
 * in the markdown cache, and those rendered (into the cache) while the task's markdown budget lasts. Every block
 * when all fit.
 */
function renderedWithinTaskBudget(all: string[], atLeast: number): number {
  let index = 0
  for (; index < all.length; index++) {
    if (isMarkdownCached(all[index]!)) continue
    if (index >= atLeast && markdownTaskBudgetSpent()) return index
    renderMarkdownCached(all[index]!)
  }
  return Number.POSITIVE_INFINITY
}
