// The server's database in tests: PGlite in memory, or a fresh database on a test Postgres, both migrated.
import pg from 'pg'
import { loadMigrations, readMigrationsFromDir } from '~~/server/utils/database/migration-files'
import { openDatabase } from '~~/server/utils/database/open-database'
import type { ServerDatabase } from '~~/server/utils/database/open-database'

export async function openPgliteForTest(): Promise<ServerDatabase> {
  return openDatabase({ dataDir: 'memory://', migrations: await loadMigrations(readMigrationsFromDir()) })
}

let databases = 0

/** A database of its own on the server at `serverUrl` (created here), so tests never see each other's rows. */
export async function createPostgresDatabase(serverUrl: string): Promise<string> {
  const name = `plugboard_test_${process.pid}_${++databases}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    await admin.query(`create database ${name}`)
  }
  finally {
    await admin.end()
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

export async function openPostgresForTest(url: string): Promise<ServerDatabase> {
  return openDatabase({ url, migrations: await loadMigrations(readMigrationsFromDir()) })
}
