import { resolve } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { MigrationMeta } from 'drizzle-orm/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import { lockDataDir } from './data-dir-lock'
import { databaseSchema } from './database-schema'
import { MIGRATION_LOCK_KEY, runMigrations } from './run-migrations'

/** The Drizzle handle the stores use: the same API on PGlite and on Postgres. */
export type Database = PgDatabase<PgQueryResultHKT, typeof databaseSchema>

export interface ServerDatabase {
  db: Database
  /** `pglite`: embedded (a folder, or memory); `postgres`: a server at `NUXT_DATABASE_URL`. */
  kind: 'pglite' | 'postgres'
  /** Closes the connection(s) and releases the folder; safe to call twice. */
  close: () => Promise<void>
}

export interface OpenDatabaseOptions {
  /** `postgres://…`: a real Postgres (node-postgres pool). Empty: the embedded PGlite. */
  url?: string
  /** PGlite's folder; `memory://` or unset keeps it in memory (tests). */
  dataDir?: string
  /** Applied before the database is handed out. */
  migrations: MigrationMeta[]
  /** Connections of the Postgres pool. @default 10 */
  maxConnections?: number
}

/** Opens the server's database and brings its schema up to date. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<ServerDatabase> {
  return options.url?.trim() ? openPostgres(options.url.trim(), options) : openPglite(options)
}

async function openPglite(options: OpenDatabaseOptions): Promise<ServerDatabase> {
  const dataDir = options.dataDir && options.dataDir !== 'memory://' ? resolve(options.dataDir) : undefined
  const release = dataDir ? lockDataDir(dataDir) : () => {}
  let client: PGlite | undefined
  try {
    client = await PGlite.create(dataDir)
    const db = drizzlePglite({ client, schema: databaseSchema })
    await runMigrations(db, options.migrations)
    let closed = false
    return {
      db,
      kind: 'pglite',
      async close() {
        if (closed) return
        closed = true
        try {
          await client!.close()
        }
        finally {
          release()
        }
      },
    }
  }
  catch (error) {
    await client?.close().catch(() => {})
    release()
    throw error
  }
}

async function openPostgres(url: string, options: OpenDatabaseOptions): Promise<ServerDatabase> {
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 })
  // An idle connection the server drops must not crash the process; the next query opens a new one.
  pool.on('error', error => console.error(`[database] ${error.message}`))
  try {
    await migrateOnOneConnection(pool, options.migrations)
  }
  catch (error) {
    await pool.end().catch(() => {})
    throw error
  }
  let closed = false
  return {
    db: drizzleNodePostgres({ client: pool, schema: databaseSchema }),
    kind: 'postgres',
    async close() {
      if (closed) return
      closed = true
      await pool.end()
    },
  }
}

/**
 * Instances starting together on one Postgres take turns: a session-level advisory lock on one connection, held
 * while that connection migrates, so the first migrates and the others then find nothing left to do.
 */
async function migrateOnOneConnection(pool: pg.Pool, migrations: MigrationMeta[]): Promise<void> {
  const connection = await pool.connect()
  let broken: Error | undefined
  try {
    await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
    try {
      await runMigrations(drizzleNodePostgres({ client: connection }), migrations)
    }
    finally {
      await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
    }
  }
  catch (error) {
    broken = error as Error
    throw error
  }
  finally {
    // A connection that failed mid-way may still hold the lock: destroy it rather than pool it.
    connection.release(broken)
  }
}
