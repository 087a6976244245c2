/**
 * Export and import as the app runs them: read the chats, write the file; read a file, check it whole, store it
 * in one transaction.
 */
import { readChatsForExport, saveImportedChats } from '~/db/chat-transfer'
import { createId } from '~/db/create-id'
import { exportAttachments } from './attachment-transfer'
import { exportHistoryJson, historyFileName } from './history-file-format'
import { chatsToMarkdown } from './history-markdown'
import { toStoredChat } from './imported-chat'
import { checkSize, describeImport, parseHistoryFile } from './parse-history-file'

export type HistoryExportFormat = 'json' | 'md'

export interface HistoryExport {
  text: string
  fileName: string
  type: string
  chatCount: number
}

/**
 * The chats named (all when none is named) as a file to download: JSON holds every branch, Markdown the branch
 * shown. Undefined when there is no chat to export.
 */
export async function exportChats(format: HistoryExportFormat, threadIds?: readonly string[]): Promise<HistoryExport | undefined> {
  const chats = await readChatsForExport(threadIds)
  if (!chats.length) return undefined
  const now = new Date()
  return format === 'json'
    ? { text: exportHistoryJson(await Promise.all(chats.map(async chat => ({ ...chat, attachments: await exportAttachments(chat.attachments ?? []) }))), now), fileName: historyFileName(chats, 'json', now), type: 'application/json', chatCount: chats.length }
    : { text: chatsToMarkdown(chats), fileName: historyFileName(chats, 'md', now), type: 'text/markdown;charset=utf-8', chatCount: chats.length }
}

export interface HistoryImportResult {
  /** "Imported 12 chats, 340 messages; skipped 3 hidden system messages." */
  summary: string
  /** The summary's numbers, for saying it in the user's language. */
  counts: { chats: number, messages: number, skippedHidden: number, skippedEmpty: number }
  /** The new ids of the imported threads, in file order. */
  threadIds: string[]
}

/**
 * Imports a history file (ours or ChatGPT's `conversations.json`): checked whole, stored with fresh ids in one
 * transaction, or not at all.
 * @throws HistoryImportError listing what is wrong with the file
 */
export async function importHistoryFile(file: Pick<Blob, 'size' | 'text'>): Promise<HistoryImportResult> {
  checkSize(file.size)
  const parsed = parseHistoryFile(await file.text())
  const chats = parsed.chats.map(chat => toStoredChat(chat, createId))
  await saveImportedChats(chats)
  const counts = { chats: parsed.chats.length, messages: parsed.messageCount, skippedHidden: parsed.skippedHidden, skippedEmpty: parsed.skippedEmpty }
  return { summary: describeImport(parsed), counts, threadIds: chats.map(chat => chat.thread.id) }
}
