import { createHlcClock } from '../../shared/sync/hlc'
import type { SyncChange } from '../../shared/sync/sync-record'

/** Messages per chat in the seeded account. */
export const MESSAGES_PER_CHAT = 100

/**
 * A large account as its first device pushes it: chats of 100 messages in one line (user and assistant in turn,
 * a few hundred bytes each), each chat's thread after its messages, every change stamped by one clock.
 */
export function seedChanges(total: number): SyncChange[] {
  const clock = createHlcClock('bench')
  const changes: SyncChange[] = []
  for (let chat = 0; chat < Math.ceil(total / MESSAGES_PER_CHAT); chat++) {
    const threadId = `thread-${chat}`
    let parentId: string | undefined
    for (let index = 0; index < MESSAGES_PER_CHAT && chat * MESSAGES_PER_CHAT + index < total; index++) {
      const id = `message-${chat}-${index}`
      const role = index % 2 === 0 ? 'user' : 'assistant'
      const content = `${role === 'user' ? 'Question' : 'Answer'} ${index} of chat ${chat}: ${'lorem ipsum dolor sit amet '.repeat(8)}`
      changes.push({ kind: 'message', id, hlc: clock.now(), deleted: false, body: { id, threadId, seq: index + 1, ...(parentId ? { parentId } : {}), role, content, status: 'complete', createdAt: index, updatedAt: index } })
      parentId = id
    }
    changes.push({ kind: 'thread', id: threadId, hlc: clock.now(), deleted: false, body: { id: threadId, title: `Chat ${chat}`, createdAt: 0, updatedAt: chat, activeLeafId: parentId } })
  }
  return changes
}
