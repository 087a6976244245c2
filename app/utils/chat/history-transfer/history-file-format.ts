/**
 * Plugboard's own history file: every chat whole, as it is stored.
 *
 * ```json
 * { "format": "plugboard.chats", "version": 1, "exportedAt": "2026-11-26T12:00:00.000Z",
 *   "chats": [{ "thread": { "id": "…", "title": "Trip", "createdAt": 1764158400000, "activeLeafId": "m4", … },
 *               "messages": [{ "id": "m1", "seq": 1, "role": "user", "content": "…", "status": "complete", … },
 *                            { "id": "m2", "parentId": "m1", "seq": 2, "role": "assistant", "toolCalls": […], … }] }] }
 * ```
 *
 * Every branch travels (rows name their parent; the thread names the leaf shown). A thread's or a row's fields
 * this version does not know are written and read as they are, so a field added later (a chat's system prompt)
 * survives a round trip through this code. Only the state of a running server job is left out.
 */
import type { MessageRecord, ThreadRecord } from '~/db/types'
import type { ExportedAttachment } from './attachment-transfer'

export const HISTORY_FILE_FORMAT = 'plugboard.chats'
export const HISTORY_FILE_VERSION = 1

/** A thread as written: all of it (the server job a chat follows is kept apart, in `serverJobs`). */
export type ExportedThread = ThreadRecord
/** A row as written: its thread is the chat it sits in, and the path marks are worked out again on import. */
export type ExportedMessage = Omit<MessageRecord, 'threadId' | 'onPath'>

export interface ExportedChat {
  thread: ExportedThread
  messages: ExportedMessage[]
  /** The files sent with its messages, whole (base64); absent when it has none. */
  attachments?: ExportedAttachment[]
}

export interface HistoryFile {
  format: typeof HISTORY_FILE_FORMAT
  version: typeof HISTORY_FILE_VERSION
  exportedAt: string
  chats: ExportedChat[]
}

/** Stored chats as the text of a history file (rows in `seq` order). */
export function exportHistoryJson(chats: readonly { thread: ThreadRecord, messages: readonly MessageRecord[], attachments?: readonly ExportedAttachment[] }[], now = new Date()): string {
  const file: HistoryFile = {
    format: HISTORY_FILE_FORMAT,
    version: HISTORY_FILE_VERSION,
    exportedAt: now.toISOString(),
    chats: chats.map(({ thread, messages, attachments }) => ({
      thread: { ...thread },
      messages: [...messages].sort((a, b) => a.seq - b.seq).map(({ threadId: _thread, onPath: _path, ...fields }) => fields),
      ...(attachments?.length && { attachments: [...attachments] }),
    })),
  }
  return `${JSON.stringify(file, null, 1)}\n`
}

/** A file name for an export: the chat's title for one chat, else the date. */
export function historyFileName(chats: readonly { thread: Pick<ThreadRecord, 'title'> }[], extension: 'json' | 'md', now = new Date()): string {
  const stamp = now.toISOString().slice(0, 10)
  if (chats.length !== 1) return `plugboard-chats-${stamp}.${extension}`
  const slug = chats[0]!.thread.title.normalize('NFKD').replace(/[^\w\s-]/g, '').trim().replace(/\s+/g, '-').slice(0, 60).toLowerCase()
  return `${slug || 'chat'}-${stamp}.${extension}`
}
