import { getDatabase } from './database'
import { threadsWithServerJobs } from './server-jobs'
import { busyThreadIds } from './thread-lock'
import { isWriting, WRITING_STATUSES } from './message-status'
import type { MessageRecord, ToolCallStatus } from './types'

/** What the model and the card read for a tool whose run was cut off by closing the page. */
export const TOOL_CLOSED_RESULT = 'Cancelled: the page was closed while the tool ran.'

export interface MarkInterruptedOptions {
  /** Threads being answered right now (in another tab) that must be left alone. @default the threads a tab holds (`claimThreadLock`) */
  skipThreadIds?: Iterable<string>
}

const UNFINISHED_TOOL_STATUSES: ToolCallStatus[] = ['queued', 'running']

/**
 * Run once at start-up: a reply left 'pending' or 'streaming' by a closed or reloaded page becomes 'interrupted'
 * (its partial text stays), and a tool left 'queued' or 'running' becomes 'cancelled' with a result saying so,
 * so the card stops spinning and the history stays valid. Threads with a live server job are left alone.
 * Only the rows that can be unfinished are read (the `status` and `toolStatus` indexes), never the whole table.
 * Resolves with the number of rows changed.
 */
export async function markInterrupted(options: MarkInterruptedOptions = {}): Promise<number> {
  const skip = new Set(options.skipThreadIds ?? await busyThreadIds())
  const db = getDatabase()
  const now = Date.now()
  return db.transaction('rw', db.messages, db.serverJobs, async () => {
    const [byStatus, byToolStatus] = await Promise.all([
      db.messages.where('status').anyOf(WRITING_STATUSES).toArray(),
      db.messages.where('toolStatus').anyOf(UNFINISHED_TOOL_STATUSES).toArray(),
    ])
    const candidates = new Map<string, MessageRecord>()
    for (const row of [...byStatus, ...byToolStatus]) {
      if (!skip.has(row.threadId) && (isUnfinished(row) || isUnfinishedTool(row))) candidates.set(row.id, row)
    }
    if (candidates.size === 0) return 0
    // A reply the server is still writing is not cut off: reopening the chat reads on from the server.
    const threadIds = [...new Set([...candidates.values()].map(row => row.threadId))]
    const serverRun = await threadsWithServerJobs(threadIds)
    const ids = [...candidates.values()].filter(row => !serverRun.has(row.threadId)).map(row => row.id)
    if (ids.length === 0) return 0
    return db.messages.where(':id').anyOf(ids).modify((row) => {
      if (isUnfinished(row)) row.status = 'interrupted'
      if (isUnfinishedTool(row)) {
        row.toolStatus = 'cancelled'
        row.toolStatusText = undefined
        if (!row.content) row.content = TOOL_CLOSED_RESULT
      }
      row.updatedAt = now
    })
  })
}

function isUnfinished(row: MessageRecord): boolean {
  // A call waiting for the user's approval is not cut off: its card still asks, and answering goes on with the chat.
  if (row.toolStatus === 'awaiting-approval') return false
  return isWriting(row.status)
}

function isUnfinishedTool(row: MessageRecord): boolean {
  return row.role === 'tool' && (row.toolStatus === 'queued' || row.toolStatus === 'running')
}
