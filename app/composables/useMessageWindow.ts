import { liveQuery, type Subscription } from 'dexie'
import { computed, onScopeDispose, shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue'
import { listLatestMessages, listMessagesBefore, listMessagesBetween, listMessagesFrom, type MessageWindow } from '~/db/message-window'
import type { MessageRecord } from '~/db/types'
import type { MarkdownPrerender } from '~/utils/chat/markdown/markdown-prerender'
import { createRowReuse } from '~/utils/chat/message-list/stable-rows'

export interface UseMessageWindowOptions {
  /** Rows read when a chat opens (what a screen shows plus a margin). @default 60 */
  initialSize?: number
  /** Rows added by each `loadOlder()`. @default 100 */
  pageSize?: number
  /** Render the markdown of rows read into the window in idle time, before they scroll into view. @default true */
  prerenderMarkdown?: boolean
}

/** What one part of the window read last: the newest rows (part 0) or a page of older ones. */
interface WindowPart extends MessageWindow {
  threadId: string
}

/**
 * The rows of the open chat that the message list shows: the newest ones, kept live, and older ones paged in as
 * the user scrolls up. Each page is a query of its own (the newest `pageSize` rows below the page after it), kept
 * live too, so reading a page reads only its rows, never the whole window again, and a write re-reads only the part
 * it touched. Unchanged rows keep their objects, so a page read in re-renders no mounted turn. Each chat keeps its
 * pages while the page lives, so switching back shows the same rows. Only the active path is shown: a branch
 * switched re-reads the pages whose rows changed. The model's history is not this: `useChat` reads the whole path.
 */
export function useMessageWindow(threadId: MaybeRefOrGetter<string | undefined>, options: UseMessageWindowOptions = {}) {
  const { initialSize = 60, pageSize = 100, prerenderMarkdown = true } = options
  /** Per chat: the `seq` each older page is below, newest page first (its first entry is where part 0 starts). */
  const pagesByThread = new Map<string, number[]>()
  let pages: number[] = []
  /**
   * Part 0 (the newest rows), then each older page, as last read. A chat's parts are shown once all of them were
   * read (until then the previous chat's stay, and `loaded` is false): a chat switched back to comes back with all
   * its pages at once, so the list finds the turn it was left at.
   */
  const parts = shallowRef<Array<WindowPart | undefined>>([])
  let staging: Array<WindowPart | undefined> = []
  let complete = false
  let subscriptions: Array<Subscription | undefined> = []
  let generation = 0

  function unsubscribeAll() {
    generation++
    for (const subscription of subscriptions) subscription?.unsubscribe()
    subscriptions = []
  }

  function subscribe(index: number, id: string, query: () => Promise<MessageWindow>) {
    subscriptions[index]?.unsubscribe()
    const reuse = createRowReuse()
    const started = generation
    subscriptions[index] = liveQuery(query).subscribe({
      next: (value) => {
        if (started !== generation) return
        staging = [...staging]
        staging[index] = { rows: reuse(value.rows), hasOlder: value.hasOlder, threadId: id }
        complete ||= staging.every(part => part !== undefined)
        if (complete) parts.value = staging
      },
      error: error => console.error(error),
    })
  }

  /** Part 0: the newest `initialSize` rows, or once pages were read, every row from the first page's upper bound on. */
  function subscribeNewest(id: string) {
    const from = pages[0]
    subscribe(0, id, from === undefined
      ? () => listLatestMessages(id, initialSize)
      : async () => ({ rows: await listMessagesFrom(id, from), hasOlder: true }))
  }

  function subscribePage(page: number, id: string) {
    const below = pages[page]!
    const current = pages
    // Read when the query runs: once an older page exists, this one reaches down to it. A page is re-read only when
    // rows in its range change, and a branch switched there is such a change, so the pages never leave a gap.
    subscribe(page + 1, id, async () => {
      const from = current[page + 1]
      return from === undefined ? listMessagesBefore(id, below, pageSize) : { rows: await listMessagesBetween(id, from, below), hasOlder: true }
    })
  }

  watch(() => toValue(threadId), (id) => {
    unsubscribeAll()
    pages = id ? [...(pagesByThread.get(id) ?? [])] : []
    staging = Array.from({ length: pages.length + 1 }, () => undefined)
    complete = false
    if (!id) {
      parts.value = []
      return
    }
    subscribeNewest(id)
    pages.forEach((_, page) => subscribePage(page, id))
  }, { immediate: true })
  onScopeDispose(unsubscribeAll)

  const rows = computed<MessageRecord[]>(() => {
    const all = parts.value
    if (all.length === 1) return all[0]?.rows ?? []
    // Oldest page first. A row seen twice (a page re-read after rows below it changed) is shown once.
    const seen = new Set<string>()
    const result: MessageRecord[] = []
    for (let index = all.length - 1; index >= 0; index--) {
      for (const row of all[index]?.rows ?? []) {
        if (seen.has(row.id)) continue
        seen.add(row.id)
        result.push(row)
      }
    }
    return result
  })

  /** A page is being read: the list asks again on every scroll event near the top. */
  const loading = computed(() => parts.value[0]?.threadId !== toValue(threadId) || parts.value.length < pages.length + 1
    || parts.value.some(part => part === undefined))
  /** The oldest part read says whether there is more (while a page is read, the part that asked for it said so). */
  const hasOlder = computed(() => {
    for (let index = parts.value.length - 1; index >= 0; index--) {
      const part = parts.value[index]
      if (part) return part.hasOlder
    }
    return false
  })

  // Each row once per chat: the replies paged in are rendered in idle time, so scrolling up mounts them from cache.
  const prerendered = new Set<string>()
  const prerenders: MarkdownPrerender[] = []
  let prerenderGeneration = 0
  const stopPrerendering = () => {
    prerenderGeneration++
    for (const prerender of prerenders.splice(0)) prerender.cancel()
    prerendered.clear()
  }
  if (prerenderMarkdown && typeof document !== 'undefined') {
    watch(() => toValue(threadId), stopPrerendering)
    watch(rows, (all) => {
      const fresh = all.filter(row => !prerendered.has(row.id))
      if (fresh.length === 0) return
      for (const row of fresh) prerendered.add(row.id)
      const started = prerenderGeneration
      // Loaded on use: the markdown renderer is not part of the page's first load.
      void import('~/utils/chat/markdown/markdown-prerender').then((module) => {
        if (started === prerenderGeneration) prerenders.push(module.prerenderMarkdown(fresh))
      })
    })
    onScopeDispose(stopPrerendering)
  }

  /** Reads `pageSize` more older rows (no-op while a page is read or when there is none). */
  function loadOlder() {
    const id = toValue(threadId)
    if (!id || loading.value || !hasOlder.value) return
    const oldest = parts.value.at(-1)!.rows[0]
    if (!oldest) return
    pages.push(oldest.seq)
    pagesByThread.set(id, [...pages])
    staging = [...staging, undefined]
    parts.value = staging
    // The newest part now starts where the first page ends, so rows arriving at the bottom never push rows out.
    if (pages.length === 1) subscribeNewest(id)
    subscribePage(pages.length - 1, id)
  }

  return {
    rows,
    /** The open chat's rows have been read at least once (until then `rows` is empty, or the previous chat's). */
    loaded: computed(() => !toValue(threadId) || parts.value[0]?.threadId === toValue(threadId)),
    hasOlder,
    loading,
    loadOlder,
  }
}
