import { StorageError } from '#shared/errors/storage-error'
import { openDatabase, type OpenDatabaseOptions, type PlugboardDatabase } from './database'
import { markInterrupted } from './mark-interrupted'

/**
 * What the app runs once before the first query (a client plugin): opens IndexedDB or the in-memory fallback,
 * then marks replies and tools cut off by the last reload as interrupted, so their cards stop spinning.
 * A failure of the clean-up is reported, not fatal: the chats are still readable.
 */
export async function startDatabase(
  options: OpenDatabaseOptions & { onError?: (error: StorageError) => void } = {},
): Promise<PlugboardDatabase> {
  const { onError = (error: StorageError) => console.error(error), ...openOptions } = options
  const db = await openDatabase(openOptions)
  try {
    await markInterrupted()
  }
  catch (cause) {
    onError(new StorageError('Could not mark the replies cut off by the last reload.', { operation: 'mark interrupted', cause }))
  }
  return db
}
