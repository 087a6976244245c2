import type { MessageRecord } from '~/db/types'

/** A reply a reload, a crash or Stop cut off: Continue and Retry are offered on it. */
export function isCutReply(row: Pick<MessageRecord, 'role' | 'status'>): boolean {
  return row.role === 'assistant' && (row.status === 'interrupted' || row.status === 'stopped')
}

/**
 * The thread's last reply when it was cut mid-text, the row Continue appends to. A cut reply that had made tool
 * calls is not returned: its text was whole (the step finished), its calls ended cancelled, and the model goes on
 * from those results in a new row, which keeps the calls and their cards as they were.
 */
export function findCutReply(rows: readonly MessageRecord[]): MessageRecord | undefined {
  const last = rows.findLast(row => row.role !== 'tool')
  return last && isCutReply(last) && !last.toolCalls?.length ? last : undefined
}
