import { computed, shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue'
import { countAudit, listAuditPage, listAuditToolNames, type AuditCursor, type AuditFilter } from '~/db/audit'
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
  /** Where each page asked for so far starts (undefined: the newest run); the last one is the page asked for. */
  const starts = shallowRef<(AuditCursor | undefined)[]>([undefined])
  // a new filter starts on the first page
  watch(() => JSON.stringify(toValue(filter)), () => { starts.value = [undefined] })

  // The rows and the number of the page they are: the page number shown changes with its rows, not before them (a
  // Details button pressed in between opened a run of the page before, whose rows then went away under it).
  const shown = useLiveQuery<{ page: number, rows: AuditRecord[] }>(
    () => {
      const asked = starts.value.length - 1
      return listAuditPage(toValue(filter), { after: starts.value.at(-1), limit: pageSize }).then(rows => ({ page: asked, rows }))
    },
    [() => JSON.stringify(toValue(filter)), starts],
    { page: 0, rows: [] },
  )
  const rows = computed(() => shown.value?.rows ?? [])
  const page = computed(() => shown.value?.page ?? 0)
  const total = useLiveQuery<number>(() => countAudit(toValue(filter)), () => JSON.stringify(toValue(filter)), 0)
  const toolNames = useLiveQuery<string[]>(() => listAuditToolNames(), undefined, [])
  /** Ids of the chats of this page that still exist (a run's chat may have been deleted). */
  const existingThreadIds = useLiveQuery<Set<string>>(async () => {
    const ids = [...new Set(rows.value.map(row => row.threadId).filter((id): id is string => Boolean(id)))]
    const threads = await getDatabase().threads.bulkGet(ids)
    return new Set(threads.filter(thread => thread !== undefined).map(thread => thread!.id))
  }, () => rows.value, new Set())

  const pageCount = computed(() => Math.max(1, Math.ceil((total.value ?? 0) / pageSize)))
  // the log shrank (cleared, pruned) under the page being shown: back to the first page
  watch(rows, (list) => {
    if (page.value > 0 && list?.length === 0) starts.value = [undefined]
  })
  const hasOlder = computed(() => rows.value.length === pageSize && (page.value + 1) * pageSize < (total.value ?? 0))

  return {
    rows,
    total,
    toolNames,
    existingThreadIds,
    page,
    pageCount,
    pageSize,
    hasOlder,
    /** The next page of older runs. */
    // both go from the page shown: pressed twice before the rows came, they ask for the same page twice
    next: () => {
      const last = rows.value.at(-1)
      if (hasOlder.value && last) starts.value = [...starts.value.slice(0, page.value + 1), { startedAt: last.startedAt, id: last.id }]
    },
    /** Back to the page of newer runs. */
    previous: () => {
      if (page.value > 0) starts.value = starts.value.slice(0, page.value)
    },
  }
}
