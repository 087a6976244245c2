import { nextTick, onBeforeUnmount, provide, ref, watch, type Ref } from 'vue'
import { runInIdleSteps } from '~/utils/chat/scheduling/idle-steps'
import { createTurnMountQueue, SCROLL_MOUNT_BUDGET_MS } from '~/utils/chat/message-list/turn-mount-queue'
import { turnMountQueueKey } from '~/utils/chat/message-list/turn-mount-key'

/**
 * How far beyond the viewport turns are mounted (px): nothing beyond it when a chat opens, so the first paint
 * mounts only the visible turns, then more in idle steps, so that scrolling finds them ready.
 */
const BUFFER_STEPS = [0, 400, 800]
/**
 * The user is scrolling (a scroll, wheel or touch move came less than SCROLL_QUIET_MS ago): turns coming into view
 * are mounted over frames. Longer than virtua's own 150 ms, whose end of scroll re-renders the list; a wheel turn at
 * the top of the rows read so far scrolls nothing while the next page is read, but the user is still scrolling.
 */
const SCROLL_QUIET_MS = 300
/**
 * The chat was just opened (or switched to): the task that shows the list mounts only the newest turn (the user looks
 * there first), and the turns above it show stand-ins and mount over the next frames, like turns scrolled into view.
 * Mounting them all at once (tool cards, markdown) made opening a long chat one long task. Ends when they are all
 * mounted, or after OPENING_MS if none waited.
 */
const OPENING_MS = 1000

/**
 * Paces the mounting of the message list's turns: while a chat opens or the user scrolls, turns mount over frames
 * (through the queue provided to them), and the virtualizer's buffer grows in idle steps after each opening.
 */
export function useTurnMountPacing(threadKey: Readonly<Ref<string>>) {
  const bufferSize = ref(BUFFER_STEPS[0]!)
  const bufferRamp = runInIdleSteps(BUFFER_STEPS.slice(1).map(size => () => { bufferSize.value = size }))

  let scrolling = false
  let scrollQuiet: ReturnType<typeof setTimeout> | undefined
  let opening = true
  let openingTimer: ReturnType<typeof setTimeout> | undefined
  function startOpening() {
    opening = true
    if (openingTimer !== undefined) clearTimeout(openingTimer)
    openingTimer = setTimeout(() => { opening = false }, OPENING_MS)
  }
  startOpening()
  const mountQueue = createTurnMountQueue({
    enabled: () => scrolling || opening,
    admitBudgetMs: () => (opening ? 0 : SCROLL_MOUNT_BUDGET_MS),
    flush: nextTick,
    onDrained: () => { opening = false },
  })
  provide(turnMountQueueKey, mountQueue)

  /** A scroll, wheel turn or touch move: turns coming into view mount over frames until the scrolling stops. */
  function markScrolling() {
    scrolling = true
    if (scrollQuiet !== undefined) clearTimeout(scrollQuiet)
    scrollQuiet = setTimeout(() => { scrolling = false }, SCROLL_QUIET_MS)
  }

  watch(threadKey, () => {
    startOpening()
    bufferSize.value = BUFFER_STEPS[0]!
    bufferRamp.restart()
  }, { flush: 'pre' })

  onBeforeUnmount(() => {
    bufferRamp.cancel()
    mountQueue.clear()
    if (scrollQuiet !== undefined) clearTimeout(scrollQuiet)
    if (openingTimer !== undefined) clearTimeout(openingTimer)
  })

  return { bufferSize, markScrolling }
}
