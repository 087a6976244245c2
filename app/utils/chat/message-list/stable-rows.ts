import type { MessageRecord } from '~/db/types'

/** Two stored rows hold the same data (a nested value, such as `toolCalls` or `usage`, compared by its JSON). */
export function sameRow(a: MessageRecord, b: MessageRecord): boolean {
  if (a === b) return true
  const keys = Object.keys(a) as Array<keyof MessageRecord>
  if (keys.length !== Object.keys(b).length) return false
  for (const key of keys) {
    const left = a[key]
    const right = b[key]
    if (left === right) continue
    if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false
    if (JSON.stringify(left) !== JSON.stringify(right)) return false
  }
  return true
}

/**
 * Keeps row objects the same across reads. Every read of a chat's window (a page of older rows, any write to the
 * thread) gives new objects for every row; handed to the list as they are, each mounted message saw new props and
 * rendered again. `reuse(rows)` returns the rows with each unchanged one replaced by the object it had in the last
 * read, so only rows whose data changed are new. Only the last read is remembered.
 */
export function createRowReuse() {
  let known = new Map<string, MessageRecord>()
  return function reuse(rows: readonly MessageRecord[]): MessageRecord[] {
    const next = new Map<string, MessageRecord>()
    const result = rows.map((row) => {
      const previous = known.get(row.id)
      const kept = previous && sameRow(previous, row) ? previous : row
      next.set(row.id, kept)
      return kept
    })
    known = next
    return result
  }
}
