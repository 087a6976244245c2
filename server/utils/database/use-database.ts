import type { MigrationFileReader } from './migration-files'
import { loadMigrations } from './migration-files'
import { openDatabase } from './open-database'
import type { Database, ServerDatabase } from './open-database'

/** Where the embedded database lives without `NUXT_DATABASE_DIR`. */
export const DEFAULT_DATABASE_DIR = '.data/pglite'

export interface DatabaseConfig {
  /** `NUXT_DATABASE_URL`: a Postgres to use instead of the embedded PGlite. */
  databaseUrl?: unknown
  /** `NUXT_DATABASE_DIR`: the embedded database's folder. @default DEFAULT_DATABASE_DIR */
  databaseDir?: unknown
}

let opening: Promise<ServerDatabase> | undefined
let openLater: (() => Promise<ServerDatabase>) | undefined

/**
 * Names the database to open on first use (`useServerDatabase`) instead of now: the embedded PGlite costs a few
 * hundred MB and seconds to open, which an instance whose users never touch a workflow should not pay.
 */
export function startDatabaseOnFirstUse(config: DatabaseConfig, read: MigrationFileReader): void {
  openLater = () => startDatabase(config, read)
}

/**
 * Opens this instance's one database (called at start-up by `server/plugins/04.database.ts`): Postgres at
 * `databaseUrl`, else PGlite in `databaseDir`, migrated with the files `read` returns. A second call returns the first.
 */
export function startDatabase(config: DatabaseConfig, read: MigrationFileReader): Promise<ServerDatabase> {
  if (!opening) {
    const url = String(config.databaseUrl ?? '').trim()
    const dataDir = String(config.databaseDir ?? '').trim() || DEFAULT_DATABASE_DIR
    opening = loadMigrations(read).then(migrations => openDatabase({ url, dataDir, migrations }))
  }
  return opening
}

/** The instance's database, once open; rejects with the reason when it could not be opened. */
export function useServerDatabase(): Promise<ServerDatabase> {
  if (!opening && openLater) return openLater()
  if (!opening) return Promise.reject(new Error('The server\'s database was not started.'))
  return opening
}

/** The Drizzle handle of the instance's database, once open. */
export async function useDatabase(): Promise<Database> {
  return (await useServerDatabase()).db
}

/** Closes the instance's database (Nitro's 'close'); a later `startDatabase` opens it again. */
export async function closeDatabase(): Promise<void> {
  const closing = opening
  opening = undefined
  if (!closing) return
  const database = await closing.catch(() => undefined)
  await database?.close()
}
