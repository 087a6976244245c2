import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, beforeEach } from 'vitest'
import { PlugboardDatabase, setDatabase } from '~/db/database'

/**
 * Gives every test of the calling file its own empty chats database (a fresh in-memory IndexedDB), installed as
 * the one the queries use, and closes it afterwards. Returns a getter for the current test's database.
 */
export function useFreshDatabase(name: string): () => PlugboardDatabase {
  let db: PlugboardDatabase | undefined
  beforeEach(() => {
    db = new PlugboardDatabase(name, { indexedDB: new IDBFactory(), IDBKeyRange })
    setDatabase(db)
  })
  afterEach(() => {
    db?.close()
    setDatabase(undefined)
  })
  return () => db!
}
