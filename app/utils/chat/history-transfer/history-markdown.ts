/**
 * A chat as Markdown to read or paste elsewhere: the branch shown, from the first message to the active leaf.
 * Tool runs are collapsible `<details>` sections (GitHub, Obsidian and most viewers fold them) holding the
 * arguments and the result in fences long enough that no text inside can close them.
 */
import type { MessageRecord, ThreadRecord } from '~/db/types'
import { formatFileSize } from '../attachments/attachment-limits'

const ROLE_HEADINGS: Record<MessageRecord['role'], string> = { user: 'You', assistant: 'Assistant', system: 'System', tool: 'Tool' }

/** The rows from the first one to the thread's active leaf, by parent links. */
export function activeBranchOf(thread: ThreadRecord, messages: readonly MessageRecord[]): MessageRecord[] {
  const byId = new Map(messages.map(message => [message.id, message]))
  const path: MessageRecord[] = []
  const seen = new Set<string>()
  for (let row = thread.activeLeafId ? byId.get(thread.activeLeafId) : undefined; row && !seen.has(row.id); row = row.parentId ? byId.get(row.parentId) : undefined) {
    seen.add(row.id)
    path.push(row)
  }
  return path.reverse()
}

/** One chat's active branch as Markdown. */
export function chatToMarkdown(thread: ThreadRecord, messages: readonly MessageRecord[]): string {
  const lines = [`# ${oneLine(thread.title)}`, '', `_${new Date(thread.createdAt).toISOString().slice(0, 16).replace('T', ' ')} UTC${thread.model ? ` · ${thread.model}` : ''}_`, '']
  let lastHeading = ''
  for (const row of activeBranchOf(thread, messages)) {
    if (row.role === 'tool') {
      lines.push(...toolSection(row))
      continue
    }
    const heading = ROLE_HEADINGS[row.role]
    // A reply of several steps (text, tools, text) reads as one answer.
    if (heading !== lastHeading) lines.push(`## ${heading}`, '')
    lastHeading = heading
    if (row.reasoning?.trim()) lines.push(...quoted(`Reasoning: ${row.reasoning.trim()}`), '')
    if (row.content.trim()) lines.push(row.content.trim(), '')
    // The files are named (the JSON export carries them whole).
    if (row.attachments?.length) lines.push(...row.attachments.map(file => `- ${file.kind === 'image' ? 'Image' : 'File'}: ${oneLine(file.name)} (${formatFileSize(file.size)})`), '')
    if (row.status === 'error' && row.error) lines.push(...quoted(`Error: ${row.error.message}`), '')
  }
  return `${lines.join('\n').trimEnd()}\n`
}

/** Several chats, one after another. */
export function chatsToMarkdown(chats: readonly { thread: ThreadRecord, messages: readonly MessageRecord[] }[]): string {
  return chats.map(chat => chatToMarkdown(chat.thread, chat.messages)).join('\n---\n\n')
}

function toolSection(row: MessageRecord): string[] {
  const result = row.toolResultFull ?? row.content
  const status = row.toolStatus && row.toolStatus !== 'done' ? ` (${row.toolStatus})` : ''
  return [
    '<details>',
    `<summary>Tool: ${escapeHtml(oneLine(row.toolName ?? 'tool'))}${status}</summary>`,
    '',
    ...(row.toolArguments ? ['Arguments:', '', ...fenced(prettyJson(row.toolArguments), 'json'), ''] : []),
    'Result:',
    '',
    ...fenced(result, ''),
    '',
    '</details>',
    '',
  ]
}

function fenced(text: string, language: string): string[] {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map(run => run.length))
  const fence = '`'.repeat(Math.max(3, longestRun + 1))
  return [`${fence}${language}`, text, fence]
}

function quoted(text: string): string[] {
  return text.split('\n').map(line => `> ${line}`)
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  }
  catch {
    return text
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, char => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!)
}
