/**
 * The one door for a history file: Plugboard's own JSON or ChatGPT's `conversations.json`. The file is untrusted
 * input: its size and counts are bounded before anything is validated, `__proto__`/`constructor`/`prototype` keys
 * never reach an object, and the whole file is validated before anything is stored. One problem anywhere refuses
 * the file (a half-imported history is worse than none).
 */
import { dropForbiddenKeys } from '#shared/security/forbidden-keys'
import { isRecord } from '#shared/types/is-record'
import { isChatGptExport, readChatGptExport } from './chatgpt-import'
import { HISTORY_FILE_FORMAT } from './history-file-format'
import { HistoryImportError } from './history-import-error'
import { isPlugboardHistory, readPlugboardHistory } from './history-json-import'
import { HISTORY_IMPORT_MAX_BYTES, HISTORY_IMPORT_MAX_CHATS, HISTORY_IMPORT_MAX_MESSAGES } from './history-limits'
import type { ImportedChat } from './imported-chat'

export interface ParsedHistory {
  source: 'plugboard' | 'chatgpt'
  chats: ImportedChat[]
  messageCount: number
  /** Messages left out because the source app does not show them (ChatGPT's system and hidden messages). */
  skippedHidden: number
  /** Messages left out because they hold nothing to show. */
  skippedEmpty: number
}

/**
 * Reads a history file's text.
 * @throws HistoryImportError listing what is wrong; nothing is returned for a file with any problem
 */
export function parseHistoryFile(text: string): ParsedHistory {
  checkSize(text.length <= HISTORY_IMPORT_MAX_BYTES / 3 ? text.length : new TextEncoder().encode(text).length)
  let value: unknown
  try {
    value = JSON.parse(text, dropForbiddenKeys)
  }
  catch (error) {
    // The reviver recurses: a nesting bomb overflows the stack, not the memory.
    if (error instanceof RangeError) throw new HistoryImportError(['The file is nested too deeply to be a chat history.'])
    throw new HistoryImportError([`The file is not JSON: ${(error as Error).message.slice(0, 200)}`])
  }
  if (isPlugboardHistory(value)) {
    const chats = Array.isArray(value.chats) ? value.chats : []
    checkCounts(chats.length, chats.reduce((sum: number, chat) => sum + (isRecord(chat) && Array.isArray(chat.messages) ? chat.messages.length : 0), 0))
    const { chats: read, problems } = readPlugboardHistory(value)
    return finish({ source: 'plugboard', chats: read, skippedHidden: 0, skippedEmpty: 0 }, problems)
  }
  if (isChatGptExport(value)) {
    checkCounts(value.length, value.reduce((sum: number, entry) => sum + (isRecord(entry) && isRecord(entry.mapping) ? Object.keys(entry.mapping).length : 0), 0))
    const { problems, ...read } = readChatGptExport(value)
    return finish({ source: 'chatgpt', ...read }, problems)
  }
  throw new HistoryImportError([`This is not a chat history Plugboard reads: expected a Plugboard export ("format": "${HISTORY_FILE_FORMAT}") or ChatGPT's conversations.json (a list of conversations with a "mapping").`])
}

/** Refuses a file over the size cap (called on the File's size before reading it, too). */
export function checkSize(bytes: number): void {
  if (bytes > HISTORY_IMPORT_MAX_BYTES) {
    throw new HistoryImportError([`The file is ${formatMegabytes(bytes)}; chat histories of at most ${formatMegabytes(HISTORY_IMPORT_MAX_BYTES)} are accepted. Export fewer chats at a time.`])
  }
}

function checkCounts(chats: number, messages: number): void {
  const problems: string[] = []
  if (chats > HISTORY_IMPORT_MAX_CHATS) problems.push(`The file holds ${chats.toLocaleString('en')} chats; at most ${HISTORY_IMPORT_MAX_CHATS.toLocaleString('en')} are imported at once.`)
  if (messages > HISTORY_IMPORT_MAX_MESSAGES) problems.push(`The file holds ${messages.toLocaleString('en')} messages; at most ${HISTORY_IMPORT_MAX_MESSAGES.toLocaleString('en')} are imported at once.`)
  if (problems.length) throw new HistoryImportError(problems)
}

function finish(read: Omit<ParsedHistory, 'messageCount'>, problems: string[]): ParsedHistory {
  if (problems.length) throw new HistoryImportError(problems)
  if (!read.chats.length) throw new HistoryImportError(['The file holds no chats.'])
  return { ...read, messageCount: read.chats.reduce((sum, chat) => sum + chat.messages.length, 0) }
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** What an import did, in one line: "Imported 12 chats, 340 messages; skipped 3 hidden system messages." */
export function describeImport(parsed: ParsedHistory): string {
  const plural = (count: number, word: string) => `${count.toLocaleString('en')} ${word}${count === 1 ? '' : 's'}`
  const skipped = [
    parsed.skippedHidden ? `${plural(parsed.skippedHidden, 'hidden system message')}` : '',
    parsed.skippedEmpty ? `${plural(parsed.skippedEmpty, 'empty message')}` : '',
  ].filter(Boolean)
  return `Imported ${plural(parsed.chats.length, 'chat')}, ${plural(parsed.messageCount, 'message')}${skipped.length ? `; skipped ${skipped.join(' and ')}` : ''}.`
}
