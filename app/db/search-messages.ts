import { getDatabase } from './database'

export interface SearchMessagesOptions {
  /** Leave this thread out (the one the user is in). */
  excludeThreadId?: string
  /** @default 10 */
  limit?: number
}

/** One message that matched, with the title of its thread. */
export interface MessageSearchHit {
  threadId: string
  threadTitle: string
  messageId: string
  role: string
  content: string
  createdAt: number
}

/**
 * Finds user and assistant messages containing `query` (case-insensitive substring), newest first, across all
 * threads. Used by the `search_chat_history` tool: keep this signature.
 */
export async function searchMessages(query: string, options: SearchMessagesOptions = {}): Promise<MessageSearchHit[]> {
  const { excludeThreadId, limit = 10 } = options
  const needle = query.trim().toLocaleLowerCase()
  if (!needle || limit <= 0) return []
  const db = getDatabase()
  return db.transaction('r', db.threads, db.messages, async () => {
    const rows = await db.messages.orderBy('createdAt').reverse()
      .filter(row => (row.role === 'user' || row.role === 'assistant')
        && row.threadId !== excludeThreadId
        && row.content.toLocaleLowerCase().includes(needle))
      .limit(limit)
      .toArray()
    const threadIds = [...new Set(rows.map(row => row.threadId))]
    const threads = await db.threads.bulkGet(threadIds)
    const titles = new Map(threads.filter(thread => thread !== undefined).map(thread => [thread.id, thread.title]))
    return rows
      // A message whose thread is gone is an orphan left by an interrupted delete: not worth showing.
      .filter(row => titles.has(row.threadId))
      .map(row => ({
        threadId: row.threadId,
        threadTitle: titles.get(row.threadId)!,
        messageId: row.id,
        role: row.role,
        content: row.content,
        createdAt: row.createdAt,
      }))
  })
}
