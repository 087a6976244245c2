import type { MessageRecord } from '~/db/types'

/** One entry of the message list: a row, and for an assistant row the tool rows answering its calls. */
export interface MessageTurn { message: MessageRecord, toolRows: MessageRecord[] }

/** Groups rows (sorted by `seq` here if they are not) into turns: an assistant row with its tool rows, every other row on its own. */
export function groupMessageTurns(messages: readonly MessageRecord[]): MessageTurn[] {
  const rows = messages.every((row, index, all) => index === 0 || all[index - 1]!.seq <= row.seq)
    ? messages
    : [...messages].sort((a, b) => a.seq - b.seq)
  const result: MessageTurn[] = []
  const turnByCallId = new Map<string, MessageTurn>()
  for (const row of rows) {
    if (row.role === 'tool' && row.toolCallId && turnByCallId.has(row.toolCallId)) {
      turnByCallId.get(row.toolCallId)!.toolRows.push(row)
      continue
    }
    const turn: MessageTurn = { message: row, toolRows: [] }
    result.push(turn)
    for (const call of row.role === 'assistant' ? row.toolCalls ?? [] : []) turnByCallId.set(call.id, turn)
  }
  return result
}

/**
 * The turns of `next`, each replaced by its object in `previous` when it holds the same row objects (the rows were
 * kept by `createRowReuse`): a mounted turn whose rows did not change gets the same props and is not rendered
 * again when older rows are paged in or another row changes.
 */
export function reuseTurns(previous: readonly MessageTurn[], next: MessageTurn[]): MessageTurn[] {
  if (previous.length === 0) return next
  const byId = new Map(previous.map(turn => [turn.message.id, turn]))
  return next.map((turn) => {
    const old = byId.get(turn.message.id)
    const same = old && old.message === turn.message && old.toolRows.length === turn.toolRows.length
      && old.toolRows.every((row, index) => row === turn.toolRows[index])
    return same ? old : turn
  })
}
