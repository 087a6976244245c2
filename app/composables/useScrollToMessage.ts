import { nextTick, onScopeDispose, shallowRef, watch, type Ref, type ShallowRef } from 'vue'
import type { MessageTurn } from '~/utils/chat/message-list/message-turns'

/** What the list's virtualizer offers for this (virtua's `VirtualizerHandle`). */
interface ScrollableList {
  scrollToIndex: (index: number, options?: { align?: 'start' | 'center' | 'end' | 'nearest' }) => void
}

export interface UseScrollToMessageOptions {
  /** How long the turn stays marked, and kept in view while the turns around it are measured. @default 4000 */
  markMs?: number
  /** Told once the list has scrolled to the message (the caller forgets the request). */
  onReached?: (messageId: string) => void
  /** Told before scrolling: the list stops following the stream. */
  onScroll?: () => void
}

/**
 * Scrolls a virtual message list to the turn holding a message once that turn is among the rows read (the caller
 * pages older rows in until it is), and marks the turn for a moment. Turns mounted around it change their heights
 * as they are measured, so until the mark ends (or the user scrolls) each `keepInView()` scrolls to it again.
 */
export function useScrollToMessage(
  messageId: () => string | undefined,
  turns: Readonly<Ref<readonly MessageTurn[]>>,
  list: Readonly<ShallowRef<ScrollableList | null | undefined>>,
  options: UseScrollToMessageOptions = {},
) {
  const { markMs = 4_000, onReached, onScroll } = options
  /** The turn marked now. */
  const markedTurnId = shallowRef<string>()
  let handled: string | undefined
  /** Scroll back to the marked turn when heights change, until the user scrolls or the mark ends. */
  let keeping = false
  let timer: ReturnType<typeof setTimeout> | undefined

  const indexOf = (turnId: string) => turns.value.findIndex(turn => turn.message.id === turnId)

  function scrollTo(turnId: string) {
    const index = indexOf(turnId)
    if (index >= 0) list.value?.scrollToIndex(index, { align: 'center' })
  }

  watch([messageId, turns, list], ([id]) => {
    if (!id) handled = undefined
    if (!id || id === handled || !list.value) return
    const turn = turns.value.find(item => item.message.id === id || item.toolRows.some(row => row.id === id))
    if (!turn) return
    handled = id
    onScroll?.()
    // After the list's own restoring of the chat's position, which waits two frames once the virtualizer mounts.
    void nextTick(() => requestAnimationFrame(() => requestAnimationFrame(() => {
      onScroll?.()
      scrollTo(turn.message.id)
      markedTurnId.value = turn.message.id
      keeping = true
      if (timer) clearTimeout(timer)
      timer = setTimeout(release, markMs)
      onReached?.(id)
    })))
  }, { flush: 'post' })

  function release() {
    markedTurnId.value = undefined
    keeping = false
  }

  /** The turns' heights changed: the marked turn is scrolled to again, so measuring does not push it out of view. */
  function keepInView() {
    if (keeping && markedTurnId.value) scrollTo(markedTurnId.value)
  }

  /** The user scrolled: the mark stays a moment, the view is theirs. */
  function stopKeeping() {
    keeping = false
  }

  onScopeDispose(() => { if (timer) clearTimeout(timer) })
  return { markedTurnId, keepInView, stopKeeping }
}
