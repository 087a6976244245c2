import { getDatabase } from './database'

/**
 * The user edited a call's arguments before allowing it: the assistant row that made the call now holds the
 * arguments that ran, so the history replayed to the model and the card agree with what happened.
 */
export async function storeEditedToolCall(threadId: string, callId: string, argumentsText: string): Promise<void> {
  const db = getDatabase()
  await db.transaction('rw', db.messages, async () => {
    const rows = await db.messages.where('threadId').equals(threadId).filter(row => row.role === 'assistant' && !!row.toolCalls?.some(call => call.id === callId)).toArray()
    for (const row of rows) {
      const toolCalls = row.toolCalls!.map(call => (call.id === callId ? { ...call, function: { ...call.function, arguments: argumentsText } } : call))
      await db.messages.update(row.id, { toolCalls, updatedAt: Date.now() })
    }
  })
}
