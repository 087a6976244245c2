import { describe, expect, it } from 'vitest'
import type { MessageRecord, ThreadRecord } from '~/db/types'
import { exportHistoryJson, historyFileName, HISTORY_FILE_FORMAT } from '~/utils/chat/history-transfer/history-file-format'
import { HISTORY_IMPORT_MAX_BYTES, HISTORY_IMPORT_MAX_CHATS, HISTORY_IMPORT_MAX_MESSAGES, HISTORY_IMPORT_MAX_STRING_CHARS } from '~/utils/chat/history-transfer/history-limits'
import { chatToMarkdown } from '~/utils/chat/history-transfer/history-markdown'
import { toStoredChat } from '~/utils/chat/history-transfer/imported-chat'
import { describeImport, parseHistoryFile } from '~/utils/chat/history-transfer/parse-history-file'
import { refusedHistoryFile } from './helpers/history-refused'

const T = 1_764_000_000_000

/** A chat with an edited question (two branches), a tool call and its result, and a field this version does not know. */
function branchedChat(): { thread: ThreadRecord, messages: MessageRecord[] } {
  const threadId = 'thread-1'
  const row = (fields: Partial<MessageRecord> & Pick<MessageRecord, 'id' | 'seq' | 'role'>): MessageRecord =>
    ({ threadId, content: '', status: 'complete', createdAt: T + fields.seq, updatedAt: T + fields.seq, ...fields })
  const messages = [
    row({ id: 'q1', seq: 1, role: 'user', content: 'What is 6*7?' }),
    row({ id: 'a1', seq: 2, parentId: 'q1', role: 'assistant', toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'calculate', arguments: '{"expression":"6*7"}' } }], usage: { promptTokens: 12, completionTokens: 4 }, model: 'demo' }),
    row({ id: 't1', seq: 3, parentId: 'a1', role: 'tool', content: '42', toolCallId: 'call_1', toolName: 'calculate', toolArguments: '{"expression":"6*7"}', toolStatus: 'done', toolResultFull: '42', startedAt: T, finishedAt: T + 3 }),
    row({ id: 'a2', seq: 4, parentId: 't1', role: 'assistant', content: '6*7 = **42**', reasoning: 'multiply' }),
    row({ id: 'q2', seq: 5, role: 'user', content: 'What is 6*8?', onPath: 1 }),
    row({ id: 'a3', seq: 6, parentId: 'q2', role: 'assistant', content: '48', onPath: 1 }),
  ]
  const thread = { id: threadId, title: 'Arithmetic', createdAt: T, updatedAt: T + 6, activeLeafId: 'a3', model: 'demo', toolChoices: { calculate: true }, systemPrompt: 'Be exact.', parameters: { temperature: 0.2 } } as ThreadRecord
  return { thread, messages }
}

/** The chat with its ids replaced by their position, so a copy with fresh ids compares equal to the original. */
function canonical(chat: { thread: ThreadRecord, messages: MessageRecord[] }) {
  const order = [...chat.messages].sort((a, b) => a.seq - b.seq)
  const name = new Map(order.map((row, index) => [row.id, `#${index + 1}`]))
  const { id: _id, ...thread } = chat.thread
  return {
    thread: { ...thread, activeLeafId: thread.activeLeafId && name.get(thread.activeLeafId) },
    messages: order.map(({ threadId: _thread, id, parentId, ...fields }) => ({ ...fields, id: name.get(id), ...(parentId ? { parentId: name.get(parentId) } : {}) })),
  }
}

let nextId = 0
const freshId = () => `new-${++nextId}`

const refused = refusedHistoryFile

function fileWith(chats: unknown[]): string {
  return JSON.stringify({ format: HISTORY_FILE_FORMAT, version: 1, exportedAt: new Date(T).toISOString(), chats })
}

describe('the history file', () => {
  it('round-trips a chat equal: every branch, the tool call and its result, usage, and thread fields it does not know', () => {
    const original = branchedChat()
    const parsed = parseHistoryFile(exportHistoryJson([original]))
    expect(parsed.source).toBe('plugboard')
    expect(parsed.messageCount).toBe(6)
    const stored = toStoredChat(parsed.chats[0]!, freshId)
    expect(canonical(stored)).toEqual(canonical(original))
    expect((stored.thread as unknown as { systemPrompt: string }).systemPrompt).toBe('Be exact.')
    // a server job named in a file is not taken: it belongs to the tab that followed it
    const withJob = JSON.parse(exportHistoryJson([original]))
    withJob.chats[0].thread.serverJob = { id: 'job', lastEventId: 3 }
    const imported = toStoredChat(parseHistoryFile(JSON.stringify(withJob)).chats[0]!, freshId)
    expect(imported.thread).not.toHaveProperty('serverJob')
  })

  it('carries an MCP App kept on a tool row (its HTML and last state), so an imported chat shows it again', () => {
    const original = branchedChat()
    const mcpApp = { toolName: 'apps__show_counter', serverName: 'Apps', uri: 'ui://counter/app.html', html: '<p>counter</p>', csp: { connectDomains: [], resourceDomains: ['https://cdn.example.com'] }, input: { label: 'mine' }, result: { structuredContent: { count: 7 } }, latestResult: { structuredContent: { count: 8 } }, permissionsAsked: ['camera' as const], modelContext: 'The counter shows 8' }
    original.messages[2] = { ...original.messages[2]!, mcpApp }
    const stored = toStoredChat(parseHistoryFile(exportHistoryJson([original])).chats[0]!, freshId)
    expect(stored.messages.find(row => row.role === 'tool')?.mcpApp).toEqual(mcpApp)
  })

  it('gives the thread and every row fresh ids, and marks the path to the active leaf', () => {
    const stored = toStoredChat(parseHistoryFile(exportHistoryJson([branchedChat()])).chats[0]!, freshId)
    const oldIds = new Set(['thread-1', 'q1', 'a1', 't1', 'a2', 'q2', 'a3'])
    expect([stored.thread.id, ...stored.messages.map(row => row.id)].some(id => oldIds.has(id))).toBe(false)
    expect(new Set(stored.messages.map(row => row.threadId))).toEqual(new Set([stored.thread.id]))
    expect(stored.messages.filter(row => row.onPath).map(row => row.content)).toEqual(['What is 6*8?', '48'])
    expect(stored.thread.activeLeafId).toBe(stored.messages.at(-1)!.id)
  })

  it('orders a row listed before its parent after it, and settles replies and tools that were running', () => {
    const file = fileWith([{
      thread: { title: 'Cut', createdAt: T, updatedAt: T },
      messages: [
        { id: 'b', parentId: 'a', seq: 1, role: 'tool', content: '', toolCallId: 'c', toolName: 'x', toolStatus: 'running', status: 'complete', createdAt: T, updatedAt: T },
        { id: 'a', seq: 2, role: 'assistant', content: 'hal', status: 'streaming', createdAt: T, updatedAt: T },
      ],
    }])
    const stored = toStoredChat(parseHistoryFile(file).chats[0]!, freshId)
    expect(stored.messages.map(row => [row.seq, row.role, row.status, row.toolStatus])).toEqual([[1, 'assistant', 'interrupted', undefined], [2, 'tool', 'complete', 'cancelled']])
    expect(stored.messages[1]!.parentId).toBe(stored.messages[0]!.id)
  })

  it('names a single chat\'s file after its title', () => {
    expect(historyFileName([{ thread: { title: 'Trip: Tokyo & Kyoto!' } }], 'md', new Date(T))).toBe('trip-tokyo-kyoto-2025-11-24.md')
    expect(historyFileName([], 'json', new Date(T))).toBe('plugboard-chats-2025-11-24.json')
  })
})

describe('the Markdown export', () => {
  it('holds the branch shown, with the tool run folded and its result fenced so no text can close the fence', () => {
    const chat = branchedChat()
    chat.thread.activeLeafId = 'a2'
    chat.messages[2]!.toolResultFull = 'a ``` fence inside'
    const markdown = chatToMarkdown(chat.thread, chat.messages)
    expect(markdown).toContain('# Arithmetic')
    expect(markdown).toContain('## You\n\nWhat is 6*7?')
    expect(markdown).not.toContain('6*8')
    expect(markdown).toContain('<details>\n<summary>Tool: calculate</summary>')
    expect(markdown).toContain('````\na ``` fence inside\n````')
    expect(markdown).toContain('"expression": "6*7"')
    expect(markdown).toContain('> Reasoning: multiply')
    expect(markdown.indexOf('6*7 = **42**')).toBeGreaterThan(markdown.indexOf('</details>'))
  })
})

describe('a file that is refused whole', () => {
  it('refuses what is not JSON, or JSON of another kind, with a message saying so', () => {
    expect(refused('{ not json')[0]).toMatch(/^The file is not JSON/)
    expect(refused('{"tools": []}')[0]).toMatch(/not a chat history Plugboard reads/)
    expect(refused(JSON.stringify({ format: HISTORY_FILE_FORMAT, version: 2, chats: [] }))[0]).toMatch(/"version" 2 is not supported/)
    expect(refused(fileWith([]))).toEqual(['The file holds no chats.'])
  })

  it('lists wrong types with where they are, and keeps nothing when one chat of many is wrong', () => {
    const good = JSON.parse(exportHistoryJson([branchedChat()])).chats[0]
    const bad = structuredClone(good)
    bad.messages[1].role = 'wizard'
    bad.messages[2].content = 42
    bad.thread.createdAt = 'yesterday'
    const problems = refused(fileWith([good, bad]))
    expect(problems).toEqual(expect.arrayContaining([
      expect.stringMatching(/^chats\[1\]\.thread\.createdAt: /),
      expect.stringMatching(/^chats\[1\]\.messages\[1\]\.role: /),
      expect.stringMatching(/^chats\[1\]\.messages\[2\]\.content: /),
    ]))
  })

  it('refuses parent links that form a cycle, name a missing row, or a leaf that is not in the chat', () => {
    const row = (id: string, parentId?: string) => ({ id, ...(parentId ? { parentId } : {}), seq: 1, role: 'user', content: id, status: 'complete', createdAt: T, updatedAt: T })
    const thread = { title: 'x', createdAt: T, updatedAt: T }
    expect(refused(fileWith([{ thread, messages: [row('a', 'b'), row('b', 'a')] }]))[0]).toMatch(/form a cycle/)
    expect(refused(fileWith([{ thread, messages: [row('a', 'a')] }]))[0]).toMatch(/form a cycle/)
    expect(refused(fileWith([{ thread, messages: [row('a', 'ghost')] }]))[0]).toMatch(/names a parent that is not in the chat/)
    expect(refused(fileWith([{ thread, messages: [row('a'), row('a')] }]))[0]).toMatch(/two messages have the id "a"/)
    expect(refused(fileWith([{ thread: { ...thread, activeLeafId: 'ghost' }, messages: [row('a')] }]))[0]).toMatch(/activeLeafId: names a message that is not in the chat/)
  })

  it('never lets __proto__, constructor or prototype keys reach an object', () => {
    const chat = JSON.parse(exportHistoryJson([branchedChat()])).chats[0]
    const text = fileWith([chat]).replace('"title":"Arithmetic"', '"title":"Arithmetic","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}')
    const stored = toStoredChat(parseHistoryFile(text).chats[0]!, freshId)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(stored.thread)).toBe(Object.prototype)
    expect(Object.keys(stored.thread)).not.toContain('constructor')
  })

  it('refuses a nesting bomb, deep values in unknown fields, and texts past the cap', () => {
    const bomb = fileWith([{ thread: { title: 'x', createdAt: T, updatedAt: T, bomb: 0 }, messages: [] }]).replace('"bomb":0', `"bomb":${'['.repeat(200_000)}${']'.repeat(200_000)}`)
    expect(refused(bomb)).toEqual(['The file is nested too deeply to be a chat history.'])
    const deep = `${'['.repeat(40)}1${']'.repeat(40)}`
    const messages: unknown[] = []
    expect(refused(fileWith([{ thread: { title: 'x', createdAt: T, updatedAt: T, later: JSON.parse(deep) }, messages }]))[0]).toMatch(/chats\[0\]\.thread\.later: nested more than 32 levels deep/)
    const huge = 'x'.repeat(HISTORY_IMPORT_MAX_STRING_CHARS + 1)
    const row = { id: 'a', seq: 1, role: 'user', content: huge, status: 'complete', createdAt: T, updatedAt: T }
    expect(refused(fileWith([{ thread: { title: 'x', createdAt: T, updatedAt: T }, messages: [row] }]))[0]).toMatch(/messages\[0\]\.content: a text longer than 4,194,304 characters/)
  })

  it('refuses files past the size and count caps before validating them', () => {
    expect(refused(' '.repeat(HISTORY_IMPORT_MAX_BYTES + 1))[0]).toMatch(/chat histories of at most 50\.0 MB are accepted/)
    const thread = { title: 'x', createdAt: T, updatedAt: T }
    expect(refused(fileWith(Array.from({ length: HISTORY_IMPORT_MAX_CHATS + 1 }, () => ({ thread, messages: [] }))))[0]).toMatch(/10,001 chats; at most 10,000/)
    const messages = Array.from({ length: HISTORY_IMPORT_MAX_MESSAGES + 1 }, () => 0)
    expect(refused(fileWith([{ thread, messages }]))[0]).toMatch(/200,001 messages; at most 200,000/)
  })
})

describe('the import summary', () => {
  it('counts chats and messages and says what was skipped', () => {
    const parsed = parseHistoryFile(exportHistoryJson([branchedChat(), branchedChat()]))
    expect(describeImport(parsed)).toBe('Imported 2 chats, 12 messages.')
    expect(describeImport({ ...parsed, chats: parsed.chats.slice(0, 1), messageCount: 1, skippedHidden: 3, skippedEmpty: 1 })).toBe('Imported 1 chat, 1 message; skipped 3 hidden system messages and 1 empty message.')
  })
})
