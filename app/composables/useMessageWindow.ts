import { computed, onScopeDispose, shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue'
import { listLatestMessages, type MessageWindow } from '~/db/message-window'
import type { MarkdownPrerender } from '~/utils/chat/markdown-prerender'
import { createRowReuse } from '~/utils/chat/stable-rows'
import { useLiveQuery } from './useLiveQuery'

export interface UseMessageWindowOptions {
  /** Rows read when a chat opens (what a screen shows plus a margin). @default 60 */
  initialSize?: number
  /** Rows added by each `loadOlder()`. @default 100 */
  pageSize?: number
  /** Render the markdown of rows read into the window in idle time, before they scroll into view. @default true */
  prerenderMarkdown?: boolean
}

/**
 * The rows of the open chat that the message list shows: the newest ones, kept live, and older ones paged in as
 * the user scrolls up. Each chat keeps its window size while the page lives, so switching back shows the same
 * rows. The model's history is not this: `useChat` reads every row when it sends.
 */
export function useMessageWindow(threadId: MaybeRefOrGetter<string | undefined>, options: UseMessageWindowOptions = {}) {
  const { initialSize = 60, pageSize = 100, prerenderMarkdown = true } = options
  const sizes = new Map<string, number>()
  const size = shallowRef(initialSize)
  watch(() => toValue(threadId), (id) => {
    size.value = (id && sizes.get(id)) || initialSize
  }, { immediate: true })

  const window = useLiveQuery<MessageWindow & { size: number, threadId?: string, read?: boolean }>(
    async () => {
      const id = toValue(threadId)
      const requested = size.value
      return id ? { ...await listLatestMessages(id, requested), size: requested, threadId: id, read: true } : { rows: [], hasOlder: false, size: requested, read: true }
    },
    [() => toValue(threadId), size],
    { rows: [], hasOlder: false, size: initialSize },
  )

  // Each row once per chat: the replies paged in are rendered in idle time, so scrolling up mounts them from cache.
  const prerendered = new Set<string>()
  const prerenders: MarkdownPrerender[] = []
  let generation = 0
  const stopPrerendering = () => {
    generation++
    for (const prerender of prerenders.splice(0)) prerender.cancel()
    prerendered.clear()
  }
  if (prerenderMarkdown && typeof document !== 'undefined') {
    watch(() => toValue(threadId), stopPrerendering)
    watch(() => window.value!.rows, (rows) => {
      const fresh = rows.filter(row => !prerendered.has(row.id))
      if (fresh.length === 0) return
      for (const row of fresh) prerendered.add(row.id)
      const started = generation
      // Loaded on use: the markdown renderer is not part of the page's first load.
      void import('~/utils/chat/markdown-prerender').then((module) => {
        if (started === generation) prerenders.push(module.prerenderMarkdown(fresh))
      })
    })
    onScopeDispose(stopPrerendering)
  }

  /** A page is being read: the list asks again on every scroll event near the top. */
  const loading = computed(() => window.value!.size !== size.value)

  /** Reads `pageSize` more older rows (no-op while a page is read or when there is none). */
  function loadOlder() {
    const id = toValue(threadId)
    if (!id || loading.value || !window.value!.hasOlder) return
    size.value += pageSize
    sizes.set(id, size.value)
  }

  // Unchanged rows keep their objects from one read to the next, so paging older rows in re-renders no mounted turn.
  const reuseRows = createRowReuse()
  return {
    rows: computed(() => reuseRows(window.value!.rows)),
    /** The open chat's rows have been read at least once (until then `rows` is empty, or the previous chat's). */
    loaded: computed(() => !toValue(threadId) || (window.value!.read === true && window.value!.threadId === toValue(threadId))),
    hasOlder: computed(() => window.value!.hasOlder),
    loading,
    loadOlder,
  }
}
