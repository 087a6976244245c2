import { describe, expect, it } from 'vitest'
import { readChatsForExport } from '~/db/chat-transfer'
import { addEditedMessage, switchBranch } from '~/db/message-branches'
import { addMessage, listAllMessages, listMessages } from '~/db/messages'
import { createThread, listThreads, touchThread } from '~/db/threads'
import type { MessageRecord, ThreadRecord } from '~/db/types'
import { HistoryImportError } from '~/utils/chat/history-transfer/history-import-error'
import { exportChats, importHistoryFile } from '~/utils/chat/history-transfer/history-transfer'
import { useFreshDatabase } from './helpers/fresh-database'

const getDb = useFreshDatabase('history-import-store-test')

/** A file the way the browser hands it over (jsdom's Blob has no text()). */
const fileOf = (text: string) => ({ size: text.length, text: async () => text })

/** Q → calculate call → result → answer; Q edited to Q2 → A2 (shown). The thread has a field added by a later version. */
async function storedChat(): Promise<ThreadRecord> {
  const thread = await createThread()
  const question = await addMessage({ threadId: thread.id, role: 'user', content: 'What is 6*7?', status: 'complete' })
  await addMessage({ threadId: thread.id, role: 'assistant', content: '', status: 'complete', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'calculate', arguments: '{"expression":"6*7"}' } }] })
  await addMessage({ threadId: thread.id, role: 'tool', content: '42', status: 'complete', toolCallId: 'c1', toolName: 'calculate', toolStatus: 'done', toolResultFull: '42' })
  await addMessage({ threadId: thread.id, role: 'assistant', content: '**42**', status: 'complete' })
  await addEditedMessage(question.id, 'What is 6*8?')
  await addMessage({ threadId: thread.id, role: 'assistant', content: '48', status: 'complete' })
  await touchThread(thread.id, { systemPrompt: 'Be exact.' } as Partial<ThreadRecord>)
  return (await listThreads())[0]!
}

/** Rows with ids named by position: an import equals its source when only the ids differ. */
function shape(rows: MessageRecord[]) {
  const name = new Map(rows.map((row, index) => [row.id, index]))
  return rows.map(({ id, threadId: _thread, parentId, ...fields }) => ({ ...fields, id: name.get(id), parent: parentId && name.get(parentId) }))
}

describe('importing a history file into the chats', () => {
  it('stores an exported chat equal to the original, with fresh ids, its branches switchable', async () => {
    const original = await storedChat()
    const file = (await exportChats('json', [original.id]))!
    expect(file.chatCount).toBe(1)
    const result = await importHistoryFile(fileOf(file.text))
    expect(result.summary).toBe('Imported 1 chat, 6 messages.')
    const [copyId] = result.threadIds
    expect(copyId).not.toBe(original.id)
    const [source, copy] = await readChatsForExport([original.id, copyId!])
    expect(shape(copy!.messages)).toEqual(shape(source!.messages))
    expect(copy!.messages.some(row => source!.messages.some(other => other.id === row.id))).toBe(false)
    expect((copy!.thread as unknown as { systemPrompt: string }).systemPrompt).toBe('Be exact.')
    expect((await listMessages(copyId!)).map(row => row.content)).toEqual(['What is 6*8?', '48'])

    await switchBranch(copy!.messages[0]!.id)
    expect((await listMessages(copyId!)).map(row => row.content)).toEqual(['What is 6*7?', '', '42', '**42**'])
    // the original did not move
    expect((await listMessages(original.id)).map(row => row.content)).toEqual(['What is 6*8?', '48'])
  })

  it('can import the same file twice: two more chats, nothing overwritten', async () => {
    const original = await storedChat()
    const { text } = (await exportChats('json'))!
    await importHistoryFile(fileOf(text))
    await importHistoryFile(fileOf(text))
    const threads = await listThreads()
    expect(threads).toHaveLength(3)
    expect(new Set(threads.map(thread => thread.id)).size).toBe(3)
    expect(await getDb().messages.count()).toBe(18)
    expect(await listAllMessages(original.id)).toHaveLength(6)
  })

  it('stores nothing when any chat in the file is invalid', async () => {
    await storedChat()
    const file = JSON.parse((await exportChats('json'))!.text)
    file.chats.push({ ...file.chats[0], messages: [{ ...file.chats[0].messages[0], status: 'exploded' }] })
    await expect(importHistoryFile(fileOf(JSON.stringify(file)))).rejects.toBeInstanceOf(HistoryImportError)
    expect(await getDb().threads.count()).toBe(1)
    expect(await getDb().messages.count()).toBe(6)
  })

  it('stores nothing when storing fails half way (one transaction)', async () => {
    await storedChat()
    const { text } = (await exportChats('json'))!
    const db = getDb()
    const bulkAdd = db.messages.bulkAdd.bind(db.messages)
    db.messages.bulkAdd = (() => Promise.reject(new Error('QuotaExceededError'))) as unknown as typeof bulkAdd
    await expect(importHistoryFile(fileOf(text))).rejects.toThrow('QuotaExceededError')
    db.messages.bulkAdd = bulkAdd
    expect(await db.threads.count()).toBe(1)
  })

  it('exports the branch shown as Markdown', async () => {
    const thread = await storedChat()
    const { text, fileName } = (await exportChats('md', [thread.id]))!
    expect(fileName).toMatch(/^what-is-67-\d{4}-\d{2}-\d{2}\.md$/)
    expect(text).toContain('## You\n\nWhat is 6*8?\n\n## Assistant\n\n48')
    expect(text).not.toContain('**42**')
  })
})
