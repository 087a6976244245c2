/**
 * Reads ChatGPT's data export (`conversations.json`): a list of conversations, each a `mapping` of node id →
 * `{ id, message, parent, children }` and the `current_node` shown. Every branch is kept; nodes a ChatGPT user
 * never saw (the root, system and hidden messages, custom instructions) are skipped and their children hang from
 * the nearest kept ancestor. Code the model sent to a tool (`recipient` other than "all") becomes a tool call, the
 * tool's output its result row.
 */
import '../zod-without-eval'
import { z } from 'zod'
import { isRecord } from '#shared/types/is-record'
import type { MessageRecord } from '~/db/types'
import { HISTORY_IMPORT_MAX_STRING_CHARS } from './history-limits'
import type { ImportedChat, ImportedMessage } from './imported-chat'

const text = z.string().max(HISTORY_IMPORT_MAX_STRING_CHARS, `a text longer than ${HISTORY_IMPORT_MAX_STRING_CHARS.toLocaleString('en')} characters`)
const seconds = z.number().min(0).nullish()

/** The characters of a message's parts that become its text (strings, and parts' own `text`). */
function partsLength(parts: readonly unknown[] | undefined): number {
  let length = 0
  for (const part of parts ?? []) length += typeof part === 'string' ? part.length : isRecord(part) && typeof part.text === 'string' ? part.text.length : 0
  return length
}

const messageSchema = z.object({
  id: z.string().max(200).optional(),
  author: z.object({ role: z.string().max(100), name: z.string().max(200).nullish() }),
  create_time: seconds,
  content: z.looseObject({
    content_type: z.string().max(100),
    parts: z.array(z.unknown()).max(10_000).optional(),
    text: text.optional(),
  }).refine(content => partsLength(content.parts) <= HISTORY_IMPORT_MAX_STRING_CHARS, { path: ['parts'], message: `a text longer than ${HISTORY_IMPORT_MAX_STRING_CHARS.toLocaleString('en')} characters` }),
  recipient: z.string().max(200).nullish(),
  metadata: z.looseObject({ is_visually_hidden_from_conversation: z.boolean().nullish() }).nullish(),
})

const nodeSchema = z.object({
  id: z.string().max(200).optional(),
  message: messageSchema.nullish(),
  parent: z.string().max(200).nullish(),
  children: z.array(z.string().max(200)).max(10_000).optional(),
})

const conversationSchema = z.object({
  title: z.string().max(1000).nullish(),
  create_time: seconds,
  update_time: seconds,
  current_node: z.string().max(200).nullish(),
  mapping: z.record(z.string().max(200), nodeSchema),
})

/** Whether a parsed file looks like ChatGPT's export: a list of objects holding a `mapping`. */
export function isChatGptExport(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every(entry => isRecord(entry) && 'mapping' in entry)
}

export interface ChatGptReadResult {
  chats: ImportedChat[]
  problems: string[]
  /** Nodes not kept because ChatGPT does not show them: system and hidden messages, custom instructions. */
  skippedHidden: number
  /** Nodes not kept because they hold nothing to show (empty text, kinds of content the export leaves out). */
  skippedEmpty: number
}

type ChatGptNode = z.infer<typeof nodeSchema>

/** The conversations as chats, or the problems found (`problems` non-empty: store nothing). */
export function readChatGptExport(conversations: readonly unknown[], maxProblems = 50): ChatGptReadResult {
  const result: ChatGptReadResult = { chats: [], problems: [], skippedHidden: 0, skippedEmpty: 0 }
  for (const [index, entry] of conversations.entries()) {
    const at = `conversations[${index}]`
    const parsed = conversationSchema.safeParse(entry)
    if (!parsed.success) {
      result.problems.push(...parsed.error.issues.slice(0, 5).map(issue => `${[at, ...issue.path.map(String)].join('.')}: ${issue.message}`))
    }
    else {
      const chat = readConversation(parsed.data, at, result)
      if (chat) result.chats.push(chat)
    }
    if (result.problems.length >= maxProblems) break
  }
  return result
}

function readConversation(conversation: z.infer<typeof conversationSchema>, at: string, result: ChatGptReadResult): ImportedChat | undefined {
  const nodes = new Map(Object.entries(conversation.mapping))
  const problem = mappingProblem(nodes)
  if (problem) {
    result.problems.push(`${at}.mapping: ${problem}`)
    return undefined
  }
  const createdAt = toMs(conversation.create_time) ?? 0
  const messages: ImportedMessage[] = []
  const kept = new Map<string, ImportedMessage>()
  /** Each node's nearest kept ancestor-or-self (undefined: none kept above it). */
  const keptAt = new Map<string, string | undefined>()
  for (const id of inTreeOrder(nodes)) {
    const node = nodes.get(id)!
    const parentKept = node.parent ? keptAt.get(node.parent) : undefined
    // The root of every conversation has no message: it is structure, not something skipped.
    const message = node.message ? toMessage(id, node.message, parentKept, messages.length + 1, createdAt) : undefined
    if (message === 'hidden') result.skippedHidden++
    else if (message === 'empty') result.skippedEmpty++
    else if (message) {
      if (message.role === 'tool') answerCall(message, parentKept ? kept.get(parentKept) : undefined)
      messages.push(message)
      kept.set(id, message)
    }
    keptAt.set(id, typeof message === 'object' ? id : parentKept)
  }
  const leaf = conversation.current_node ? keptAt.get(conversation.current_node) : undefined
  const updatedAt = toMs(conversation.update_time) ?? Math.max(createdAt, ...messages.map(message => message.createdAt))
  return {
    thread: { title: conversation.title?.trim() || 'Imported chat', createdAt, updatedAt, ...(leaf ? { activeLeafId: leaf } : {}) },
    messages,
  }
}

/** Parents that are missing or form a cycle make the mapping no tree. */
function mappingProblem(nodes: Map<string, ChatGptNode>): string | undefined {
  for (const [id, node] of nodes) {
    if (node.parent && !nodes.has(node.parent)) return `node ${JSON.stringify(id).slice(0, 80)} names a parent that is not in the mapping`
  }
  const done = new Set<string>()
  for (const id of nodes.keys()) {
    const walk = new Set<string>()
    for (let current: string | undefined = id; current && !done.has(current); current = nodes.get(current)?.parent ?? undefined) {
      if (walk.has(current)) return `the parent links form a cycle (through node ${JSON.stringify(current).slice(0, 80)})`
      walk.add(current)
    }
    for (const each of walk) done.add(each)
  }
  return undefined
}

/** Node ids, each after its parent; siblings in the order their parent lists them (ChatGPT's branch order). */
function inTreeOrder(nodes: Map<string, ChatGptNode>): string[] {
  const children = new Map<string, string[]>()
  const roots: string[] = []
  for (const [id, node] of nodes) {
    if (!node.parent) {
      roots.push(id)
      continue
    }
    const list = children.get(node.parent) ?? []
    list.push(id)
    children.set(node.parent, list)
  }
  for (const [parent, list] of children) {
    const listed = nodes.get(parent)?.children ?? []
    const rank = new Map(listed.map((child, index) => [child, index]))
    list.sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity))
  }
  const order: string[] = []
  const stack = [...roots].reverse()
  while (stack.length) {
    const id = stack.pop()!
    order.push(id)
    stack.push(...[...(children.get(id) ?? [])].reverse())
  }
  return order
}

/** A tool's output answers the call of the row above it when that row made one. */
function answerCall(row: ImportedMessage, caller: ImportedMessage | undefined) {
  const call = caller?.toolCalls?.[0]
  row.toolCallId = call?.id ?? `call_${row.id}`
  if (call) row.toolArguments = call.function.arguments
}

/** One node as a row, or why it is not kept: a ChatGPT user would not have seen it, or it holds nothing to show. */
function toMessage(id: string, message: z.infer<typeof messageSchema>, parentId: string | undefined, seq: number, fallbackTime: number): ImportedMessage | 'hidden' | 'empty' {
  const role = message.author.role
  if (message.metadata?.is_visually_hidden_from_conversation || (role !== 'user' && role !== 'assistant' && role !== 'tool')) return 'hidden'
  const body = contentText(message.content)
  if (body === undefined) return 'empty'
  const createdAt = toMs(message.create_time) ?? fallbackTime
  const row: ImportedMessage = { id, seq, role, content: body, status: 'complete', createdAt, updatedAt: createdAt }
  if (parentId) row.parentId = parentId
  const recipient = message.recipient ?? 'all'
  if (role === 'assistant' && recipient !== 'all') {
    // The model's message to a tool: a call whose arguments are the code or query it sent.
    row.content = ''
    row.toolCalls = [{ id: `call_${id}`, type: 'function', function: { name: recipient, arguments: JSON.stringify({ input: body }) } }]
  }
  if (role === 'tool') {
    const toolName = message.author.name || 'tool'
    Object.assign(row, { toolName, toolStatus: 'done', toolResultFull: body } satisfies Partial<MessageRecord>)
  }
  return row
}

/** The text a reader saw, or undefined for content with nothing to show. Images and files become a note. */
function contentText(content: z.infer<typeof messageSchema>['content']): string | undefined {
  if (content.parts) {
    const pieces = content.parts.map(part => (typeof part === 'string' ? part : isRecord(part) ? describePart(part) : ''))
    const joined = pieces.filter(Boolean).join('\n\n')
    return joined.trim() ? joined : undefined
  }
  return content.text?.trim() ? content.text : undefined
}

function describePart(part: Record<string, unknown>): string {
  if (typeof part.text === 'string') return part.text
  if (part.content_type === 'image_asset_pointer') return '_[An image was attached here; the export holds only its reference.]_'
  return `_[${String(part.content_type ?? 'An attachment').slice(0, 60)} not included in the export.]_`
}

function toMs(seconds: number | null | undefined): number | undefined {
  return typeof seconds === 'number' ? Math.round(seconds * 1000) : undefined
}
