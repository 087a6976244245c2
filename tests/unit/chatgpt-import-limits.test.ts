// ChatGPT's conversations.json is a file from elsewhere: a huge or hostile one is refused whole with a clear
// message, before it fills the tab's memory, and nothing of it is kept.
import { describe, expect, it } from 'vitest'
import { HISTORY_IMPORT_MAX_BYTES, HISTORY_IMPORT_MAX_CHATS, HISTORY_IMPORT_MAX_MESSAGES, HISTORY_IMPORT_MAX_STRING_CHARS } from '~/utils/chat/history-transfer/history-limits'
import { refusedHistoryFile } from './helpers/history-refused'

const refused = refusedHistoryFile

const node = (id: string, parent: string | null, text: string, children: string[] = []) => ({
  id, parent, children,
  message: { id, author: { role: 'user' }, create_time: 1_700_000_000, content: { content_type: 'text', parts: [text] }, metadata: {} },
})

function conversation(mapping: Record<string, unknown>, current: string) {
  return { title: 'T', create_time: 1_700_000_000, update_time: 1_700_000_100, mapping, current_node: current }
}

describe('ChatGPT export limits', () => {
  it('refuses a file past the size cap before reading it', () => {
    expect(refused(' '.repeat(HISTORY_IMPORT_MAX_BYTES + 1))[0]).toMatch(/at most 50\.0 MB/)
  })

  // building and reading 200,001 nodes takes seconds on a loaded machine
  it('refuses more conversations than the cap, and more messages than the cap across them', { timeout: 180_000 }, () => {
    const small = conversation({ a: node('a', null, 'hi') }, 'a')
    expect(refused(JSON.stringify(Array.from({ length: HISTORY_IMPORT_MAX_CHATS + 1 }, () => small))).join(' ')).toMatch(/10,001.*10,000/)
    const mapping: Record<string, unknown> = {}
    for (let index = 0; index <= HISTORY_IMPORT_MAX_MESSAGES; index++) mapping[`n${index}`] = node(`n${index}`, index ? `n${index - 1}` : null, 'x')
    expect(refused(JSON.stringify([conversation(mapping, `n${HISTORY_IMPORT_MAX_MESSAGES}`)])).join(' ')).toMatch(/200,001.*200,000/)
  })

  it('refuses a text past the cap rather than cutting it, and a nesting bomb', () => {
    const huge = conversation({ a: node('a', null, 'x'.repeat(HISTORY_IMPORT_MAX_STRING_CHARS + 1)) }, 'a')
    expect(refused(JSON.stringify([huge])).join(' ')).toMatch(/longer than 4,194,304 characters/)
    const bomb = JSON.stringify([conversation({ a: node('a', null, 'hi') }, 'a')]).replace('"metadata":{}', `"metadata":${'['.repeat(200_000)}${']'.repeat(200_000)}`)
    expect(refused(bomb).join(' ')).toMatch(/nested too deeply/)
  })
})
