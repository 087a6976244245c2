// The server's stores must behave alike on both databases an operator can pick: the embedded PGlite and a real
// Postgres. This harness runs a store's suite on each, so no store test repeats how a backend is started, shared
// between two instances and closed. Postgres is Debian's, on a free loopback port, stopped by its pid; where its
// binaries are missing that half is reported as skipped, with the command that installs them.
import { afterAll, beforeAll, describe } from 'vitest'
import type { ServerDatabase } from '~~/server/utils/database/open-database'
import { postgresMissing, startPostgresServer } from './postgres-server'
import type { PostgresServer } from './postgres-server'
import { createPostgresDatabase, openPgliteForTest, openPostgresForTest } from './test-databases'

/**
 * Two handles on one database, as two app instances hold them: on PGlite the same handle (one process owns its
 * folder), on Postgres two pools of their own. Readable from the suite's `beforeAll` hooks on.
 */
export interface DatabasePair {
  readonly first: ServerDatabase
  readonly second: ServerDatabase
}

/** Runs `suite` as "<subject> on PGlite (embedded)" and "<subject> on Postgres", each on a fresh migrated database. */
export function describeOnDatabases(subject: string, suite: (databases: DatabasePair) => void): void {
  describe(`${subject} on PGlite (embedded)`, () => {
    const databases = openPairFor(async () => {
      const database = await openPgliteForTest()
      return [database, database]
    })
    suite(databases)
  })
  describeOnPostgres(`${subject} on Postgres`, (server) => {
    const databases = openPairFor(async () => {
      const url = await createPostgresDatabase(server().url)
      return Promise.all([openPostgresForTest(url), openPostgresForTest(url)])
    })
    suite(databases)
  })
}

/**
 * A describe block with a Postgres server of its own, started before its tests and stopped by pid after them
 * (hooks the suite adds run inside that span). Skipped, saying how to install Postgres, where it is missing.
 */
export function describeOnPostgres(title: string, suite: (server: () => PostgresServer) => void): void {
  const missing = postgresMissing()
  if (missing) console.warn(`Skipping "${title}": ${missing}`)
  describe.skipIf(Boolean(missing))(title, () => {
    let server: PostgresServer | undefined
    beforeAll(async () => {
      server = await startPostgresServer()
    }, 60_000)
    afterAll(async () => {
      await server?.stop()
    })
    suite(() => {
      if (!server) throw new Error('The Postgres server is started in beforeAll: read it from a hook or a test.')
      return server
    })
  })
}

/** Opens the pair before the block's tests and closes both handles after them. */
function openPairFor(open: () => Promise<ServerDatabase[]>): DatabasePair {
  let opened: ServerDatabase[] = []
  beforeAll(async () => {
    opened = await open()
  }, 120_000)
  afterAll(async () => {
    await Promise.all([...new Set(opened.splice(0))].map(database => database.close()))
  })
  const handle = (index: number) => {
    const database = opened[index]
    if (!database) throw new Error('The databases are opened in beforeAll: read them from a hook or a test.')
    return database
  }
  return {
    get first() { return handle(0) },
    get second() { return handle(1) },
  }
}
