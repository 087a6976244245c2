import type { Page } from '@playwright/test'
import type { MessageRecord, ThreadRecord } from '../../../app/db/types'

/** A stored chat to import: the thread and its rows. */
export interface SeededChat {
  thread: ThreadRecord
  messages: MessageRecord[]
}

/**
 * A chat of `messageCount` rows in groups of four: a question, an assistant row calling `calculate`, the tool
 * row, and a markdown answer (paragraphs, a list, every fifth one a code block). `messageCount / 4` tool calls.
 * One branch: each row's parent is the row before it, all on the active path, the last one the thread's leaf.
 */
export function longChat(threadId: string, messageCount = 2000): SeededChat {
  const start = 1_750_000_000_000
  const messages: MessageRecord[] = []
  const add = (fields: Omit<MessageRecord, 'id' | 'threadId' | 'seq' | 'createdAt' | 'updatedAt' | 'status'>) => {
    const seq = messages.length + 1
    const parentId = messages.at(-1)?.id
    messages.push({ id: `${threadId}-m${seq}`, threadId, seq, ...(parentId ? { parentId } : {}), onPath: 1, status: 'complete', createdAt: start + seq * 1000, updatedAt: start + seq * 1000, ...fields })
  }
  for (let turn = 1; messages.length < messageCount; turn++) {
    const expression = `${turn} * 7 + ${turn % 13}`
    add({ role: 'user', content: `Question ${turn}: what is ${expression}, and can you explain the steps?` })
    const callId = `call_${turn}`
    add({ role: 'assistant', content: '', toolCalls: [{ id: callId, type: 'function', function: { name: 'calculate', arguments: JSON.stringify({ expression }) } }] })
    const value = String(turn * 7 + (turn % 13))
    add({ role: 'tool', content: value, toolCallId: callId, toolName: 'calculate', toolArguments: JSON.stringify({ expression }), toolStatus: 'done', toolResultFull: value, startedAt: start, finishedAt: start + 3 })
    const code = turn % 5 === 0 ? `\n\n\`\`\`ts\nconst answer = ${expression} // ${value}\nconsole.log(answer)\n\`\`\`` : ''
    add({
      role: 'assistant',
      content: `Answer ${turn}: **${expression} = ${value}**.\n\nFirst multiply, then add the remainder term. This paragraph is here so the message has the length of a real answer, with *emphasis* and \`inline code\`.\n\n- step one: ${turn} × 7\n- step two: add ${turn % 13}${code}`,
    })
  }
  messages.length = messageCount
  return { thread: { id: threadId, title: `Long chat (${messageCount} messages)`, createdAt: start, updatedAt: start + messageCount * 1000, activeLeafId: messages.at(-1)?.id }, messages }
}

/**
 * Imports a chat into the app's IndexedDB database ('plugboard', opened and upgraded by the app's Dexie code
 * first), as an export/import would: the same object stores and rows the app writes. Works on any build of the
 * app, so a baseline build can be seeded the same way.
 */
export async function importChat(page: Page, chat: SeededChat): Promise<void> {
  await page.evaluate(async ({ thread, messages }) => {
    const db = await new Promise<IDBDatabase>((done, fail) => {
      const request = indexedDB.open('plugboard')
      request.onsuccess = () => done(request.result)
      request.onerror = () => fail(request.error)
    })
    await new Promise<void>((done, fail) => {
      const transaction = db.transaction(['threads', 'messages'], 'readwrite')
      transaction.objectStore('threads').put(thread)
      const store = transaction.objectStore('messages')
      for (const message of messages) store.put(message)
      transaction.oncomplete = () => done()
      transaction.onerror = () => fail(transaction.error)
    })
    db.close()
  }, chat)
}
