/**
 * Reads Plugboard's own history file (`history-file-format.ts`) into chats to store: every field of every row
 * checked (zod), the tree checked, unknown fields carried within bounds. Problems are collected, not thrown one
 * by one, so the message lists what is wrong; the caller refuses the whole file when any is found.
 */
import '../zod-without-eval'
import { z } from 'zod'
import { isRecord } from '#shared/types/is-record'
import { extraFieldProblems } from './extra-fields'
import { HISTORY_FILE_FORMAT, HISTORY_FILE_VERSION } from './history-file-format'
import { HISTORY_IMPORT_MAX_STRING_CHARS } from './history-limits'
import { findTreeProblems, type ImportedChat, type ImportedMessage } from './imported-chat'
import { messageAttachmentsSchema, readAttachments } from './attachment-transfer'

const text = z.string().max(HISTORY_IMPORT_MAX_STRING_CHARS, `a text longer than ${HISTORY_IMPORT_MAX_STRING_CHARS.toLocaleString('en')} characters`)
const name = z.string().max(1000)
const id = z.string().min(1).max(200)
const time = z.number().min(0)
const count = z.number().min(0).optional()
const notice = z.object({ kind: name, message: text })

const threadSchema = z.looseObject({
  title: name,
  createdAt: time,
  updatedAt: time,
  model: name.optional(),
  toolChoices: z.record(name, z.boolean()).optional(),
  activeLeafId: id.optional(),
})

const messageSchema = z.looseObject({
  id,
  parentId: id.optional(),
  seq: z.number(),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: text,
  reasoning: text.optional(),
  status: z.enum(['pending', 'streaming', 'complete', 'interrupted', 'stopped', 'error']),
  error: z.looseObject({ kind: name, message: text, retryable: z.boolean() }).optional(),
  toolCalls: z.array(z.object({ id: name, type: z.literal('function'), function: z.object({ name, arguments: text }) })).max(256).optional(),
  toolCallId: name.optional(),
  toolName: name.optional(),
  toolArguments: text.optional(),
  toolStatus: z.enum(['queued', 'awaiting-approval', 'running', 'done', 'error', 'cancelled', 'skipped', 'denied']).optional(),
  toolStatusText: text.optional(),
  toolResultFull: text.optional(),
  truncated: z.boolean().optional(),
  startedAt: time.optional(),
  finishedAt: time.optional(),
  notice: notice.optional(),
  notices: z.array(notice).max(1000).optional(),
  usage: z.object({ promptTokens: count, completionTokens: count, totalTokens: count, reasoningTokens: count, cost: count }).optional(),
  continuedFrom: z.number().int().min(0).optional(),
  attachments: messageAttachmentsSchema.optional(),
  model: name.optional(),
  createdAt: time,
  updatedAt: time,
})

/** Stored per chat, never taken from a file: the running job, the chat a row sits in, the path marks. */
// `serverJob`: files written before version 10 of the database could not hold it, but a hand-made one may
const THREAD_DROPPED = ['id', 'serverJob'] as const
const MESSAGE_DROPPED = ['threadId', 'onPath'] as const
const THREAD_KNOWN = new Set([...Object.keys(threadSchema.shape), ...THREAD_DROPPED])
const MESSAGE_KNOWN = new Set([...Object.keys(messageSchema.shape), ...MESSAGE_DROPPED])

/** Whether a parsed file looks like ours (the caller picks the reader). */
export function isPlugboardHistory(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && value.format === HISTORY_FILE_FORMAT
}

/** The chats of our file, or the problems found (`problems` non-empty: store nothing). */
export function readPlugboardHistory(file: Record<string, unknown>, maxProblems = 50): { chats: ImportedChat[], problems: string[] } {
  const problems: string[] = []
  if (file.version !== HISTORY_FILE_VERSION) {
    problems.push(`"version" ${JSON.stringify(file.version)?.slice(0, 20)} is not supported (this app reads version ${HISTORY_FILE_VERSION})`)
  }
  if (!Array.isArray(file.chats)) problems.push('"chats" must be a list of chats')
  if (problems.length) return { chats: [], problems }
  const chats: ImportedChat[] = []
  for (const [index, entry] of (file.chats as unknown[]).entries()) {
    const chat = readChat(entry, `chats[${index}]`, problems)
    if (chat) chats.push(chat)
    if (problems.length >= maxProblems) break
  }
  return { chats, problems }
}

function readChat(entry: unknown, at: string, problems: string[]): ImportedChat | undefined {
  if (!isRecord(entry) || !isRecord(entry.thread) || !Array.isArray(entry.messages)) {
    problems.push(`${at}: must be an object with "thread" and "messages"`)
    return undefined
  }
  const before = problems.length
  const thread = threadSchema.safeParse(entry.thread)
  if (!thread.success) problems.push(...issuesOf(thread.error, `${at}.thread`))
  else problems.push(...extraFieldProblems(thread.data, THREAD_KNOWN, `${at}.thread`))
  const messages: ImportedMessage[] = []
  for (const [index, row] of (entry.messages as unknown[]).entries()) {
    const message = messageSchema.safeParse(row)
    const rowAt = `${at}.messages[${index}]`
    if (!message.success) {
      problems.push(...issuesOf(message.error, rowAt))
      if (problems.length - before > 10) return undefined
      continue
    }
    problems.push(...extraFieldProblems(message.data, MESSAGE_KNOWN, rowAt))
    messages.push(without(message.data, MESSAGE_DROPPED) as ImportedMessage)
  }
  if (problems.length > before || !thread.success) return undefined
  problems.push(...findTreeProblems(messages, at))
  const threadFields = without(thread.data, THREAD_DROPPED) as ImportedChat['thread']
  if (threadFields.activeLeafId !== undefined && !messages.some(message => message.id === threadFields.activeLeafId)) {
    problems.push(`${at}.thread.activeLeafId: names a message that is not in the chat`)
  }
  const attachments = readAttachments(entry.attachments, messages, at, problems)
  return problems.length > before ? undefined : { thread: threadFields, messages, ...(attachments.length && { attachments }) }
}

function issuesOf(error: z.ZodError, at: string): string[] {
  return error.issues.slice(0, 5).map(issue => `${[at, ...issue.path.map(String)].join('.')}: ${issue.message}`)
}

function without(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const copy = { ...record }
  for (const key of keys) delete copy[key]
  return copy
}
