import { computed, nextTick, onBeforeUnmount, onMounted, shallowRef, watch, type Ref, type ShallowRef } from 'vue'
import type { Virtualizer } from 'virtua/vue'
import type { CacheSnapshot } from 'virtua'
import type { MessageRecord } from '~/db/types'
import type { MessageTurn } from '~/utils/chat/message-list/message-turns'
import { recallListScroll, rememberListScroll, type ListScrollMemory } from '~/utils/chat/message-list/scroll-memory'

/** Distance from the bottom (px) that still counts as "at the bottom". */
const BOTTOM_SLACK = 32
/** The list's top padding (py-4), which virtua must know to place items. */
export const LIST_START_MARGIN = 16
/**
 * A turn's height (px) until virtua has measured a screenful: then it guesses the median of the measured turns
 * (about 110 px in a chat of questions and tool calls), so the turns above the view, never measured, take about the
 * room they will need and scrolling up moves the view little when they are. The first guess is high on purpose:
 * virtua's own (40 px) made it mount every turn of the window at once when the list appeared (before it knew the
 * viewport), all thrown away a frame later. Given as a cache snapshot with no sizes, not as `item-size`, which
 * would switch virtua's estimate off for good.
 */
const TURN_HEIGHT_GUESS = 320
// virtua copies the sizes it is given: one snapshot serves every mount.
const FIRST_GUESS: CacheSnapshot = [[], TURN_HEIGHT_GUESS]

export interface ListScrollFollowOptions {
  /** Follow new content. Cleared when the user scrolls up, set again at the bottom or by `scrollToBottom`. */
  following: Ref<boolean>
  scroller: Readonly<ShallowRef<HTMLElement | null>>
  virtualizer: Readonly<ShallowRef<InstanceType<typeof Virtualizer> | null>>
  turns: Readonly<Ref<readonly MessageTurn[]>>
  /** The thread shown (the virtualizer is keyed by it). */
  threadKey: Readonly<Ref<string>>
  /** The rows shown, whose growth (a reply streaming) the list follows. */
  messages: () => MessageRecord[]
}

function distanceFromBottom(element: HTMLElement): number {
  return element.scrollHeight - element.scrollTop - element.clientHeight
}

/**
 * The message list follows the stream while the user stays at the bottom, and each chat opens where the user left
 * it during this page's life (the bottom the first time), with the sizes the virtualizer had measured for it.
 */
export function useListScrollFollow({ following, scroller, virtualizer, turns, threadKey, messages }: ListScrollFollowOptions) {
  let lastScrollTop = 0
  /** The list's height at the last scroll event, and whether the user turned a wheel or swiped since. */
  let lastClientHeight = 0
  let gesture = false

  /** Scrolls to the newest message and follows the stream again. */
  function scrollToBottom(behavior: ScrollBehavior = 'auto') {
    following.value = true
    const element = scroller.value
    if (!element) return
    if (typeof element.scrollTo === 'function') element.scrollTo({ top: element.scrollHeight, behavior })
    else element.scrollTop = element.scrollHeight
    lastScrollTop = element.scrollTop
  }

  function follow() {
    if (following.value) scrollToBottom()
  }

  // The scroll that follows a render waits for the next frame: reading the list's height right after the render
  // laid the page out inside the task that rendered, once per update, where the frame lays it out once anyway.
  let followFrame: number | undefined
  function followNextFrame() {
    if (!following.value || followFrame !== undefined) return
    if (typeof requestAnimationFrame !== 'function') return follow()
    followFrame = requestAnimationFrame(() => {
      followFrame = undefined
      follow()
    })
  }

  // What changes while a reply streams: the number of rows and the size of the last one.
  const growth = computed(() => {
    const rows = messages()
    const last = rows.at(-1)
    return `${rows.length}:${last?.id}:${last?.content.length}:${last?.reasoning?.length}:${last?.updatedAt}`
  })
  // Sending a message means the user wants to see the answer: a new question at the end follows again, even when
  // its reply's row came in the same update (this used to wait for a user row marked pending, which none is).
  const newestQuestion = () => messages().findLast(row => row.role === 'user')?.seq ?? -1
  let lastQuestion = newestQuestion()
  watch(growth, () => {
    const question = newestQuestion()
    if (question > lastQuestion) following.value = true
    lastQuestion = question
    followNextFrame()
  }, { flush: 'post' })

  // The virtualizer is keyed by thread, so it remounts with the sizes it had measured for that chat.
  const restored = shallowRef(recallListScroll(threadKey.value))
  following.value = restored.value?.following ?? true
  watch(threadKey, (next, previous) => {
    saveScroll(previous)
    anchor = undefined
    restored.value = recallListScroll(next)
    following.value = restored.value?.following ?? true
    lastQuestion = newestQuestion()
  }, { flush: 'pre' })
  // The virtualizer mounts with the list and again on each chat switch (it is keyed by thread). virtua takes the
  // scroller one frame after mounting: a remembered position is set after that, so virtua reads it.
  watch(virtualizer, (instance) => {
    if (!instance) return
    void nextTick(() => requestAnimationFrame(() => requestAnimationFrame(restoreScroll)))
  })

  // How many turns the virtualizer shows now. When the thread changes, `turns` already holds the next chat's turns
  // while the DOM and the virtualizer still show the previous one: this is what its sizes belong to.
  let renderedTurns = 0
  watch(() => turns.value.length, (length) => { renderedTurns = length }, { flush: 'post', immediate: true })

  /** The turn at the top of the view, read on each scroll (when the thread changes, `turns` is already the next one's). */
  let anchor: ListScrollMemory['anchor']
  function readAnchor(): ListScrollMemory['anchor'] {
    const list = virtualizer.value
    const element = scroller.value
    if (!list || !element) return undefined
    const top = Math.max(0, element.scrollTop - LIST_START_MARGIN)
    const index = list.findItemIndex(top)
    const turn = turns.value[index]
    return turn ? { turnId: turn.message.id, offset: top - list.getItemOffset(index) } : undefined
  }

  function saveScroll(threadId: string) {
    const element = scroller.value
    if (!element || !threadId) return
    rememberListScroll(threadId, { following: following.value, offset: element.scrollTop, anchor, cache: virtualizer.value?.cache, length: renderedTurns })
  }

  function restoreScroll() {
    const memory = restored.value
    const element = scroller.value
    if (!element) return
    if (memory && !memory.following) {
      following.value = false
      const index = memory.anchor ? turns.value.findIndex(turn => turn.message.id === memory.anchor!.turnId) : -1
      // virtua scrolls to the turn and corrects the position as the turns around it are measured.
      if (index >= 0 && virtualizer.value) virtualizer.value.scrollToIndex(index, { offset: memory.anchor!.offset })
      else element.scrollTop = memory.offset
      lastScrollTop = element.scrollTop
      // Once: later re-mounts of this chat read the position saved when the user leaves it again.
      restored.value = undefined
    }
    else if (following.value) {
      scrollToBottom()
    }
  }

  /** The measured sizes are only valid for the same turns. */
  const restoredCache = computed(() => (restored.value?.length === turns.value.length ? restored.value.cache : undefined) ?? FIRST_GUESS)

  /**
   * Whether the view moved up from `before` to `after`: the turn at its top is an earlier one, or the same turn
   * further down. A turn above the view measured smaller than guessed moves the scroll position up by as much, but
   * not the view: virtua keeps the turns in view where they were. Taken for the user scrolling up, that stopped the
   * following while a reply streamed. Unknown (no virtualizer, a new chat): a scroll up is taken as the user's.
   */
  function viewMovedUp(before: ListScrollMemory['anchor'], after: ListScrollMemory['anchor']): boolean {
    if (!before || !after) return true
    if (before.turnId === after.turnId) return after.offset < before.offset - 2
    const indexOf = (turnId: string) => turns.value.findIndex(turn => turn.message.id === turnId)
    return indexOf(after.turnId) < indexOf(before.turnId)
  }

  /** A wheel turned or a swipe over the list: the next scroll up is the user's even if the list was resized. */
  function onUserGesture() {
    gesture = true
  }

  /**
   * The list scrolled: scrolling up stops following, reaching the bottom follows again. A scroll up that came with
   * the list growing taller is the browser's, not the user's: at the bottom, a list that grows (the composer emptied
   * by a send shrinks by a line) lowers the scroll position by as much. Taken for the user scrolling up, a message
   * sent stopped the list following its own reply.
   */
  function onScroll(element: HTMLElement) {
    const before = anchor
    anchor = readAnchor()
    const grewBy = element.clientHeight - lastClientHeight
    const up = lastScrollTop - element.scrollTop
    const listGrew = lastClientHeight > 0 && grewBy > 0 && up <= grewBy + 2
    if (up > 2 && (gesture || !listGrew) && viewMovedUp(before, anchor)) following.value = false
    if (distanceFromBottom(element) <= BOTTOM_SLACK) following.value = true
    lastScrollTop = element.scrollTop
    lastClientHeight = element.clientHeight
    gesture = false
  }

  onMounted(() => {
    if (following.value) scrollToBottom()
  })
  onBeforeUnmount(() => {
    if (followFrame !== undefined) cancelAnimationFrame(followFrame)
    saveScroll(threadKey.value)
  })

  return { scrollToBottom, follow, onScroll, onUserGesture, restoredCache }
}
