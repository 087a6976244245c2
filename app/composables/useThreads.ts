import { computed, shallowRef } from 'vue'
import { createThread, deleteThread, filterThreads, listThreads, renameThread, setThreadPinned } from '~/db/threads'
import type { ThreadRecord } from '~/db/types'
import { useLiveQuery } from './useLiveQuery'

/**
 * The thread list for the sidebar: every thread, most recent first, live across tabs, with a title filter.
 */
export function useThreads() {
  const threads = useLiveQuery<ThreadRecord[]>(() => listThreads(), undefined, [])
  /** What the user typed in the filter box. */
  const filter = shallowRef('')
  const filteredThreads = computed(() => filterThreads(threads.value ?? [], filter.value))

  return { threads, filter, filteredThreads, createThread, renameThread, deleteThread, setThreadPinned }
}
