/**
 * A chat read from a file, before it is stored: its rows still carry the file's ids. `toStoredChat` gives every
 * row and the thread fresh ids (an import never overwrites or collides with a stored chat, and the same file can be
 * imported twice), orders the rows so each comes after its parent, and marks the path to the active leaf.
 */
import type { ChatRows } from '~/db/chat-transfer'
import type { MessageRecord, MessageStatus, ThreadRecord, ToolCallStatus } from '~/db/types'
import { toStoredAttachments, type ImportedAttachment } from './attachment-transfer'

/** A row as read from a file: `id` and `parentId` are the file's; `seq` only orders it among the others. */
export type ImportedMessage = Omit<MessageRecord, 'threadId' | 'onPath'>

export interface ImportedChat {
  /** The thread's fields (the file's `activeLeafId` is a row id of the file). */
  thread: Omit<ThreadRecord, 'id'>
  messages: ImportedMessage[]
  /** The files of its messages (ours only; checked against the rows that list them). */
  attachments?: ImportedAttachment[]
}

/**
 * The file's tree checked whole: ids unique, each parent in the same chat, no row its own ancestor. Walks are
 * iterative (a chain of 100,000 rows is fine) and each row is visited once.
 */
export function findTreeProblems(messages: readonly ImportedMessage[], at: string): string[] {
  const problems: string[] = []
  const byId = new Map<string, ImportedMessage>()
  for (const message of messages) {
    if (byId.has(message.id)) problems.push(`${at}: two messages have the id ${JSON.stringify(message.id).slice(0, 80)}`)
    byId.set(message.id, message)
  }
  for (const message of messages) {
    if (message.parentId !== undefined && !byId.has(message.parentId)) {
      problems.push(`${at}: message ${JSON.stringify(message.id).slice(0, 80)} names a parent that is not in the chat`)
    }
  }
  if (problems.length) return problems
  const done = new Set<string>()
  for (const message of messages) {
    const walk = new Set<string>()
    let current: ImportedMessage | undefined = message
    while (current && !done.has(current.id)) {
      if (walk.has(current.id)) {
        problems.push(`${at}: the messages' parent links form a cycle (through ${JSON.stringify(current.id).slice(0, 80)})`)
        break
      }
      walk.add(current.id)
      current = current.parentId === undefined ? undefined : byId.get(current.parentId)
    }
    for (const id of walk) done.add(id)
    if (problems.length) return problems
  }
  return problems
}

/** A reply or tool run that was under way when the file was written: stored as cut, so nothing resumes or runs it. */
const SETTLED_STATUS: Partial<Record<MessageStatus, MessageStatus>> = { pending: 'interrupted', streaming: 'interrupted' }
const SETTLED_TOOL_STATUS: Partial<Record<ToolCallStatus, ToolCallStatus>> = { 'queued': 'cancelled', 'running': 'cancelled', 'awaiting-approval': 'cancelled' }

/**
 * The chat as rows to store, with fresh ids from `createId`. Call only on a chat whose tree `findTreeProblems`
 * accepted. Rows keep the file's order; a row listed before its parent is placed right after it.
 */
export function toStoredChat(chat: ImportedChat, createId: () => string): ChatRows {
  const threadId = createId()
  const newIds = new Map(chat.messages.map(message => [message.id, createId()]))
  const ordered = parentsFirst(chat.messages)
  const messages = ordered.map((message, index): MessageRecord => {
    const { id, parentId, ...fields } = message
    const record: MessageRecord = { ...fields, id: newIds.get(id)!, threadId, seq: index + 1 }
    if (parentId !== undefined) record.parentId = newIds.get(parentId)!
    const status = SETTLED_STATUS[record.status]
    if (status) record.status = status
    const toolStatus = record.toolStatus && SETTLED_TOOL_STATUS[record.toolStatus]
    if (toolStatus) record.toolStatus = toolStatus
    return record
  })
  const { activeLeafId: fileLeaf, ...threadFields } = chat.thread
  const leafId = (fileLeaf !== undefined && newIds.get(fileLeaf)) || messages.at(-1)?.id
  const byId = new Map(messages.map(message => [message.id, message]))
  for (let row = leafId ? byId.get(leafId) : undefined; row; row = row.parentId ? byId.get(row.parentId) : undefined) row.onPath = 1
  const thread: ThreadRecord = { ...threadFields, id: threadId }
  if (leafId) thread.activeLeafId = leafId
  const attachments = toStoredAttachments(chat.attachments ?? [], threadId, newIds, messages, createId)
  return { thread, messages, ...(attachments.length && { attachments }) }
}

/** The rows by their `seq`, each parent before its children (the store's invariant: a child's seq is higher). */
function parentsFirst(messages: readonly ImportedMessage[]): ImportedMessage[] {
  const sorted = messages.map((message, index) => ({ message, index }))
    .sort((a, b) => a.message.seq - b.message.seq || a.index - b.index)
    .map(entry => entry.message)
  const placed = new Set<string>()
  const waiting = new Map<string, ImportedMessage[]>()
  const result: ImportedMessage[] = []
  for (const message of sorted) {
    if (message.parentId !== undefined && !placed.has(message.parentId)) {
      const list = waiting.get(message.parentId) ?? []
      list.push(message)
      waiting.set(message.parentId, list)
      continue
    }
    const queue = [message]
    for (let head = 0; head < queue.length; head++) {
      const next = queue[head]!
      result.push(next)
      placed.add(next.id)
      const children = waiting.get(next.id)
      if (children) {
        waiting.delete(next.id)
        queue.push(...children)
      }
    }
  }
  return result
}
