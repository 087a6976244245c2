import { getDatabase } from './database'
import { candidateMessageIds, updateSearchIndex } from './search-index'
import type { MessageRecord } from './types'

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
 * threads. Used by the `search_chat_history` tool: keep this signature. The word index (`search-index.ts`) picks
 * the rows that may match; each is checked with the substring test, so the answers are those of a full scan.
 */
export async function searchMessages(query: string, options: SearchMessagesOptions = {}): Promise<MessageSearchHit[]> {
  const { excludeThreadId, limit = 10 } = options
  const needle = query.trim().toLocaleLowerCase()
  if (!needle || limit <= 0) return []
  const db = getDatabase()
  await updateSearchIndex(db)
  return db.transaction('r', [db.threads, db.messages, db.searchIndex, db.searchWords], async () => {
    const matches = (row: MessageRecord) => (row.role === 'user' || row.role === 'assistant')
      && row.threadId !== excludeThreadId
      && row.content.toLocaleLowerCase().includes(needle)
    const candidates = await candidateMessageIds(db, needle)
    const rows = candidates
      ? (await db.messages.bulkGet([...candidates]))
          .filter((row): row is MessageRecord => row !== undefined && matches(row))
          .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
          .slice(0, limit)
      // A query of punctuation only: every row is read, as before the index.
      : await db.messages.orderBy('createdAt').reverse().filter(matches).limit(limit).toArray()
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
