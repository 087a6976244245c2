import type { MessageRecord } from '~/db/types'

let seq = 0

/** A stored row with sensible defaults, for component tests. */
export function row(fields: Partial<MessageRecord> & Pick<MessageRecord, 'role'>): MessageRecord {
  seq++
  return {
    id: `m${seq}`,
    threadId: 't1',
    seq,
    content: '',
    status: 'complete',
    createdAt: 1_700_000_000_000 + seq,
    updatedAt: 1_700_000_000_000 + seq,
    ...fields,
  }
}

/** An assistant row that called the given tools, with ids call_<name>. */
export function assistantWithCalls(names: string[], fields: Partial<MessageRecord> = {}): MessageRecord {
  return row({
    role: 'assistant',
    toolCalls: names.map(name => ({ id: `call_${name}`, type: 'function', function: { name, arguments: '{"x":1}' } })),
    ...fields,
  })
}

/** A tool row answering call_<name>. */
export function toolRow(name: string, fields: Partial<MessageRecord> = {}): MessageRecord {
  return row({
    role: 'tool',
    toolCallId: `call_${name}`,
    toolName: name,
    toolArguments: '{"x":1}',
    toolStatus: 'done',
    content: `${name} result`,
    toolResultFull: `${name} result`,
    startedAt: 1000,
    finishedAt: 1250,
    ...fields,
  })
}
