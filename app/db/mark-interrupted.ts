import { getDatabase } from './database'
import { busyThreadIds } from './thread-lock'
import type { MessageRecord } from './types'

/** What the model and the card read for a tool whose run was cut off by closing the page. */
export const TOOL_CLOSED_RESULT = 'Cancelled: the page was closed while the tool ran.'

export interface MarkInterruptedOptions {
  /** Threads being answered right now (in another tab) that must be left alone. @default the threads locked with `holdThreadLock` */
  skipThreadIds?: Iterable<string>
}

/**
 * Run once at start-up: a reply left 'pending' or 'streaming' by a closed or reloaded page becomes 'interrupted'
 * (its partial text stays), and a tool left 'queued' or 'running' becomes 'cancelled' with a result saying so,
 * so the card stops spinning and the history stays valid. Threads with a live server job are left alone.
 * Resolves with the number of rows changed.
 */
export async function markInterrupted(options: MarkInterruptedOptions = {}): Promise<number> {
  const skip = new Set(options.skipThreadIds ?? await busyThreadIds())
  const db = getDatabase()
  // A reply the server is still writing is not cut off: reopening the chat reads on from the server.
  for (const thread of await db.threads.toArray()) if (thread.serverJob) skip.add(thread.id)
  const now = Date.now()
  return db.transaction('rw', db.messages, () =>
    db.messages
      .filter(row => !skip.has(row.threadId) && (isUnfinished(row) || isUnfinishedTool(row)))
      .modify((row) => {
        if (isUnfinished(row)) row.status = 'interrupted'
        if (isUnfinishedTool(row)) {
          row.toolStatus = 'cancelled'
          row.toolStatusText = undefined
          if (!row.content) row.content = TOOL_CLOSED_RESULT
        }
        row.updatedAt = now
      }),
  )
}

function isUnfinished(row: MessageRecord): boolean {
  // A call waiting for the user's approval is not cut off: its card still asks, and answering goes on with the chat.
  if (row.toolStatus === 'awaiting-approval') return false
  return row.status === 'pending' || row.status === 'streaming'
}

function isUnfinishedTool(row: MessageRecord): boolean {
  return row.role === 'tool' && (row.toolStatus === 'queued' || row.toolStatus === 'running')
}
