import { computed, shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue'
import { countAudit, listAuditPage, listAuditToolNames, type AuditFilter } from '~/db/audit'
import { getDatabase } from '~/db/database'
import type { AuditRecord } from '~/db/types'
import { useLiveQuery } from './useLiveQuery'

export interface UseAuditLogOptions {
  /** Runs per page. @default 25 */
  pageSize?: number
}

/**
 * The audit page's data: one page of runs (newest first) for a filter, the count, the tools that have runs, and
 * which of the page's chats still exist. Live: a run logged in another tab shows up. Only one page is ever read.
 */
export function useAuditLog(filter: MaybeRefOrGetter<AuditFilter>, options: UseAuditLogOptions = {}) {
  const { pageSize = 25 } = options
  const page = shallowRef(0)
  // a new filter starts on the first page
  watch(() => JSON.stringify(toValue(filter)), () => { page.value = 0 })

  const rows = useLiveQuery<AuditRecord[]>(
    () => listAuditPage(toValue(filter), { offset: page.value * pageSize, limit: pageSize }),
    [() => JSON.stringify(toValue(filter)), page],
    [],
  )
  const total = useLiveQuery<number>(() => countAudit(toValue(filter)), () => JSON.stringify(toValue(filter)), 0)
  const toolNames = useLiveQuery<string[]>(() => listAuditToolNames(), undefined, [])
  /** Ids of the chats of this page that still exist (a run's chat may have been deleted). */
  const existingThreadIds = useLiveQuery<Set<string>>(async () => {
    const ids = [...new Set((rows.value ?? []).map(row => row.threadId).filter((id): id is string => Boolean(id)))]
    const threads = await getDatabase().threads.bulkGet(ids)
    return new Set(threads.filter(thread => thread !== undefined).map(thread => thread!.id))
  }, () => rows.value, new Set())

  const pageCount = computed(() => Math.max(1, Math.ceil((total.value ?? 0) / pageSize)))
  // the log shrank (cleared, pruned) under the page being shown
  watch(pageCount, (count) => {
    if (page.value >= count) page.value = count - 1
  })

  return {
    rows,
    total,
    toolNames,
    existingThreadIds,
    page,
    pageCount,
    pageSize,
    next: () => { if (page.value < pageCount.value - 1) page.value++ },
    previous: () => { if (page.value > 0) page.value-- },
  }
}
