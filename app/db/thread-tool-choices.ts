import { StorageError } from '#shared/errors/storage-error'
import { getDatabase } from './database'

/** A chat's own tool switches (see `ThreadRecord.toolChoices`); undefined for a chat that follows All chats. */
export async function getThreadToolChoices(threadId: string): Promise<Record<string, boolean> | undefined> {
  return (await getDatabase().threads.get(threadId))?.toolChoices
}

/**
 * Stores a chat's own tool switches; an empty object removes them (the chat follows All chats again). Does not
 * move the chat in the list: `updatedAt` means "last message".
 */
export async function setThreadToolChoices(threadId: string, choices: Record<string, boolean>): Promise<void> {
  // a plain object: Dexie stores what structuredClone keeps, and a null-prototype object is kept as a plain one
  const stored = Object.keys(choices).length > 0 ? { ...choices } : undefined
  const updated = await getDatabase().threads.update(threadId, { toolChoices: stored })
  if (!updated && !(await getDatabase().threads.get(threadId))) {
    throw new StorageError(`Chat ${threadId} does not exist.`, { operation: 'save tool choices' })
  }
}
