import { liveQuery, type Subscription } from 'dexie'
import { computed, onScopeDispose, shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue'
import { branchingChildren, branchPosition, firstRowIds, type BranchPosition } from '~/db/message-branches'
import type { MessageRecord } from '~/db/types'

/**
 * Where each row shown stands among its siblings (`‹ 2/3 ›`), for the rows that have siblings. The children of the
 * rows' parents are followed live through the parent index (keys only); a chat's first rows, which have no parent
 * to look up by, are read again when the first row shown changes or `refresh()` is called after a tree change.
 */
export function useBranchPositions(rows: MaybeRefOrGetter<readonly MessageRecord[]>) {
  const children = shallowRef(new Map<string, string[]>())
  const firstRows = shallowRef<{ threadId: string, ids: string[] }>()
  let subscription: Subscription | undefined

  const parentKey = computed(() => [...new Set(toValue(rows).map(row => row.parentId).filter((id): id is string => !!id))].sort().join(' '))
  watch(parentKey, (key) => {
    subscription?.unsubscribe()
    const parentIds = key ? key.split(' ') : []
    subscription = liveQuery(() => branchingChildren(parentIds)).subscribe({
      next: (value) => { children.value = value },
      error: error => console.error(error),
    })
  }, { immediate: true })
  onScopeDispose(() => subscription?.unsubscribe())

  const firstRow = computed(() => toValue(rows).find(row => !row.parentId))
  let reads = 0
  async function readFirstRows() {
    const row = firstRow.value
    const read = ++reads
    const ids = row ? await firstRowIds(row.threadId) : []
    if (read === reads) firstRows.value = row ? { threadId: row.threadId, ids } : undefined
  }
  watch(() => firstRow.value?.id, () => void readFirstRows(), { immediate: true })

  const positions = computed(() => {
    const result = new Map<string, BranchPosition>()
    for (const row of toValue(rows)) {
      const siblings = row.parentId ? children.value.get(row.parentId) : firstRows.value?.threadId === row.threadId ? firstRows.value.ids : undefined
      const position = branchPosition(row, siblings)
      if (position) result.set(row.id, position)
    }
    return result
  })

  return { positions, refresh: readFirstRows }
}
