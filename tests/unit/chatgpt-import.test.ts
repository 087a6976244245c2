import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { HistoryImportError } from '~/utils/chat/history-transfer/history-import-error'
import { toStoredChat } from '~/utils/chat/history-transfer/imported-chat'
import { describeImport, parseHistoryFile } from '~/utils/chat/history-transfer/parse-history-file'
import { activeBranchOf } from '~/utils/chat/history-transfer/history-markdown'

/** A `conversations.json` written from the export's public description: two conversations, one with an edited question. */
const sample = readFileSync(new URL('../fixtures/chatgpt/conversations.json', import.meta.url), 'utf8')

let nextId = 0
const freshId = () => `id-${++nextId}`

function refused(value: unknown): string[] {
  try {
    parseHistoryFile(JSON.stringify(value))
  }
  catch (error) {
    expect(error).toBeInstanceOf(HistoryImportError)
    return (error as HistoryImportError).problems
  }
  throw new Error('the file was accepted')
}

/** A conversation whose mapping is `nodes` (id → parent), each node a user message saying its id. */
function conversation(nodes: Record<string, string | null>, current?: string) {
  const children = new Map<string, string[]>()
  for (const [id, parent] of Object.entries(nodes)) if (parent) children.set(parent, [...(children.get(parent) ?? []), id])
  const mapping = Object.fromEntries(Object.entries(nodes).map(([id, parent]) => [id, {
    id, parent, children: children.get(id) ?? [],
    message: { id, author: { role: 'user' }, create_time: 1_700_000_000, content: { content_type: 'text', parts: [id] }, metadata: {} },
  }]))
  return { title: 'T', create_time: 1_700_000_000, update_time: 1_700_000_100, mapping, current_node: current ?? Object.keys(nodes).at(-1) }
}

describe('ChatGPT\'s conversations.json', () => {
  it('imports each conversation with its branches, skipping hidden, system and empty nodes, and says so', () => {
    const parsed = parseHistoryFile(sample)
    expect(parsed.source).toBe('chatgpt')
    expect(describeImport(parsed)).toBe('Imported 2 chats, 10 messages; skipped 3 hidden system messages and 1 empty message.')
    const [trip] = parsed.chats.map(chat => toStoredChat(chat, freshId))
    expect(trip!.thread.title).toBe('Trip ideas for Japan')
    expect(trip!.thread.createdAt).toBe(1_732_610_000_123)
    // The edited question is a sibling of the first: both are first rows, the second one shown.
    const roots = trip!.messages.filter(row => !row.parentId)
    expect(roots.map(row => row.content)).toEqual(['What should I see in Tokyo in three days?', 'What should I see in Kyoto in three days?'])
    expect(activeBranchOf(trip!.thread, trip!.messages).map(row => `${row.role}: ${row.content}`)).toEqual([
      'user: What should I see in Kyoto in three days?',
      'assistant: Day 1: Fushimi Inari at dawn, then Gion. Day 2: Arashiyama bamboo grove. Day 3: Kinkaku-ji and Nishiki market.',
      'user: Which of these is best in the rain?',
      'assistant: Nishiki market: it is covered, so rain does not matter.',
    ])
    // The reply under a skipped "thoughts" node hangs from the question.
    const kyotoAnswer = trip!.messages.find(row => row.content.startsWith('Day 1: Fushimi'))!
    expect(kyotoAnswer.parentId).toBe(roots[1]!.id)
    expect(trip!.messages.filter(row => row.onPath)).toHaveLength(4)
  })

  it('turns code sent to a tool into a tool call and its output into the answering tool row', () => {
    const powers = toStoredChat(parseHistoryFile(sample).chats[1]!, freshId)
    const [question, call, result, answer] = powers.messages
    expect(question!.content).toBe('_[An image was attached here; the export holds only its reference.]_\n\nWhat is 2 to the 10th? Check it with code.')
    expect(call!.toolCalls).toEqual([{ id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'python', arguments: '{"input":"print(2 ** 10)"}' } }])
    expect(result).toMatchObject({ role: 'tool', parentId: call!.id, toolCallId: call!.toolCalls![0]!.id, toolName: 'python', toolStatus: 'done', content: '1024', toolResultFull: '1024', toolArguments: '{"input":"print(2 ** 10)"}' })
    expect(answer).toMatchObject({ role: 'assistant', content: '2 to the 10th is **1024**.', parentId: result!.id })
    expect(powers.thread.activeLeafId).toBe(answer!.id)
  })

  it('refuses a mapping whose parent links form a cycle or name a missing node', () => {
    expect(refused([conversation({ a: 'b', b: 'a' })])[0]).toMatch(/^conversations\[0\]\.mapping: the parent links form a cycle/)
    expect(refused([conversation({ a: 'a' })])[0]).toMatch(/form a cycle/)
    expect(refused([conversation({ a: null, b: 'ghost' })])[0]).toMatch(/node "b" names a parent that is not in the mapping/)
  })

  it('refuses wrong types with where they are, and imports nothing when one conversation of many is wrong', () => {
    const good = conversation({ a: null, b: 'a' })
    const bad = conversation({ a: null })
    ;(bad.mapping.a!.message as unknown as { content: unknown }).content = { content_type: 'text', parts: 'not a list' }
    expect(refused([good, { ...bad, title: 7 }])).toEqual(expect.arrayContaining([
      expect.stringMatching(/^conversations\[1\]\.title: /),
      expect.stringMatching(/^conversations\[1\]\.mapping\.a\.message\.content\.parts: /),
    ]))
  })

  it('keeps a long chain without recursion and keeps the last kept node when the current one is hidden', () => {
    const nodes: Record<string, string | null> = { n0: null }
    for (let index = 1; index < 12_000; index++) nodes[`n${index}`] = `n${index - 1}`
    const long = conversation(nodes)
    const chat = toStoredChat(parseHistoryFile(JSON.stringify([long])).chats[0]!, freshId)
    expect(chat.messages.filter(row => row.onPath)).toHaveLength(12_000)
    const hidden = conversation({ a: null, b: 'a' }, 'b')
    ;(hidden.mapping.b!.message as unknown as { metadata: unknown }).metadata = { is_visually_hidden_from_conversation: true }
    const stored = toStoredChat(parseHistoryFile(JSON.stringify([hidden])).chats[0]!, freshId)
    expect(stored.messages.map(row => row.content)).toEqual(['a'])
    expect(stored.thread.activeLeafId).toBe(stored.messages[0]!.id)
  })

  it('drops __proto__ node ids rather than letting them reach an object', () => {
    const text = JSON.stringify([conversation({ a: null, b: 'a' })]).replace('"mapping":{', '"mapping":{"__proto__":{"id":"x","parent":null,"children":[],"message":null},')
    const parsed = parseHistoryFile(text)
    expect(parsed.messageCount).toBe(2)
    expect(({} as Record<string, unknown>).id).toBeUndefined()
  })
})
