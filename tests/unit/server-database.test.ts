import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { Redis } from 'ioredis'
import { createStorage } from 'unstorage'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DataDirLockedError, lockDataDir } from '~~/server/utils/database/data-dir-lock'
import { checkDatabaseHealth } from '~~/server/utils/database/database-health'
import { loadMigrations, readMigrationsFromDir } from '~~/server/utils/database/migration-files'
import { openDatabase } from '~~/server/utils/database/open-database'
import type { ServerDatabase } from '~~/server/utils/database/open-database'
import { createDatabaseWorkflowStore } from '~~/server/utils/workflows/database-workflow-store'
import { moveLegacyWorkflows } from '~~/server/utils/workflows/legacy-workflows'
import type { Workflow } from '~~/server/utils/workflows/workflow-types'
import { describeOnPostgres } from './helpers/database-backends'
import { startRedisServer } from './helpers/redis-server'
import { createPostgresDatabase, openPgliteForTest } from './helpers/test-databases'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plugboard-db-test-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
const migrations = () => loadMigrations(readMigrationsFromDir())
/** Both drivers answer raw SQL with `{ rows }`. */
const rowsOf = <Row>(result: unknown) => (result as { rows: Row[] }).rows
const tables = async (database: ServerDatabase) => rowsOf<{ table_name: string }>(await database.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`)).map(row => row.table_name)
const applied = async (database: ServerDatabase) => rowsOf<{ total: number }>(await database.db.execute(sql`select count(*)::int as total from drizzle.__drizzle_migrations`))[0]!.total

function workflow(id: string, sessionId: string): Workflow {
  return { id, sessionId, name: `Workflow ${id}`, systemPrompt: '', model: 'plugboard/demo', tools: [], createdAt: 1, updatedAt: 1 }
}

// Initialising a PGlite cluster costs seconds of CPU: the tests share one in memory where a fresh one is not the point.
let shared: ServerDatabase
beforeAll(async () => {
  shared = await openPgliteForTest()
}, 120_000)
afterAll(async () => {
  await shared?.close()
})

describe('the embedded database (PGlite)', () => {
  it('creates its tables with the committed migrations and records them in Drizzle\'s journal', async () => {
    expect(shared.kind).toBe('pglite')
    expect(await tables(shared)).toContain('workflows')
    expect(await applied(shared)).toBe((await migrations()).length)
  })

  it('keeps its rows in its folder across a restart, applying no migration twice; reports its health, and a closed database as unhealthy', async () => {
    const dir = join(tempDir(), 'pglite')
    const first = await openDatabase({ dataDir: dir, migrations: await migrations() })
    await createDatabaseWorkflowStore(first.db).put(workflow('kept', 'session-a'))
    await first.close()
    const second = await openDatabase({ dataDir: dir, migrations: await migrations() })
    expect(await createDatabaseWorkflowStore(second.db).get('session-a', 'kept')).toMatchObject({ name: 'Workflow kept' })
    expect(await applied(second)).toBe((await migrations()).length)
    expect(await checkDatabaseHealth(second)).toMatchObject({ ok: true, kind: 'pglite', latencyMs: expect.any(Number) })
    await second.close()
    const health = await checkDatabaseHealth(second)
    expect(health).toMatchObject({ ok: false, kind: 'pglite' })
    expect(health.error).toEqual(expect.any(String))
  }, 120_000)

  it('refuses a folder another live process holds, in words that say what to do, and takes over a dead one\'s', () => {
    const dir = tempDir()
    // Our parent is alive and is not us: its claim stands.
    writeFileSync(join(dir, 'plugboard.pid'), String(process.ppid))
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError)
    expect(() => lockDataDir(dir)).toThrow(/NUXT_DATABASE_DIR.*NUXT_DATABASE_URL/)
    // A pid no process has: a crashed instance's claim.
    writeFileSync(join(dir, 'plugboard.pid'), '2147483646')
    const release = lockDataDir(dir)
    expect(readFileSync(join(dir, 'plugboard.pid'), 'utf8')).toBe(String(process.pid))
    release()
    expect(() => readFileSync(join(dir, 'plugboard.pid'))).toThrow()
  })

  it('refuses a migrations folder with a missing file, naming it', async () => {
    const read = readMigrationsFromDir()
    await expect(loadMigrations(async path => (path.endsWith('.sql') ? null : read(path)))).rejects.toThrow(/0000_workflows\.sql is missing/)
  })
})

describe('workflows kept before the database', () => {
  let redisServer: Awaited<ReturnType<typeof startRedisServer>>
  let redis: Redis
  beforeAll(async () => {
    redisServer = await startRedisServer()
    redis = new Redis(redisServer.url)
  })
  afterAll(async () => {
    redis?.disconnect()
    await redisServer?.stop()
  })

  it('move into the database once, from the embedded files and from Redis, and are gone from there', async () => {
    const storage = createStorage()
    await storage.setItem('workflows:session-a:from-files', workflow('from-files', 'session-a'))
    await storage.setItem('workflows:session-a:broken', 'not json {')
    await redis.hset('legacy-test:workflows:session-b', 'from-redis', JSON.stringify(workflow('from-redis', 'session-b')))
    const store = createDatabaseWorkflowStore(shared.db)
    expect(await moveLegacyWorkflows(store, { storage, redis, redisKeyPrefix: 'legacy-test:' })).toBe(2)
    expect(await store.get('session-a', 'from-files')).toMatchObject({ name: 'Workflow from-files' })
    expect(await store.get('session-b', 'from-redis')).toMatchObject({ name: 'Workflow from-redis' })
    expect(await storage.getKeys('workflows')).toEqual(['workflows:session-a:broken'])
    expect(await redis.exists('legacy-test:workflows:session-b')).toBe(0)
    expect(await moveLegacyWorkflows(store, { storage, redis, redisKeyPrefix: 'legacy-test:' })).toBe(0)
  })
})

describeOnPostgres('a real Postgres (NUXT_DATABASE_URL)', (server) => {

  it('migrates once when several instances start on it at the same moment', async () => {
    const url = await createPostgresDatabase(server().url)
    const instances = await Promise.all(Array.from({ length: 4 }, async () => openDatabase({ url, migrations: await migrations() })))
    try {
      expect(instances.map(instance => instance.kind)).toEqual(['postgres', 'postgres', 'postgres', 'postgres'])
      expect(await tables(instances[0]!)).toContain('workflows')
      expect(await applied(instances[3]!)).toBe((await migrations()).length)
      expect(await checkDatabaseHealth(instances[1]!)).toMatchObject({ ok: true, kind: 'postgres' })
    }
    finally {
      await Promise.all(instances.map(instance => instance.close()))
    }
  }, 60_000)

  it('refuses to start on a server that does not answer, with the driver\'s reason', async () => {
    const url = new URL(server().url)
    url.port = '1'
    await expect(openDatabase({ url: url.toString(), migrations: await migrations() })).rejects.toThrow(/ECONNREFUSED/)
  })
})
