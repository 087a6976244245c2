import { sql } from 'drizzle-orm'
import type { ServerDatabase } from './open-database'

export interface DatabaseHealth {
  ok: boolean
  kind?: ServerDatabase['kind']
  /** Round trip of `select 1`, in ms. */
  latencyMs?: number
  /** Why it is not ok, in words. */
  error?: string
}

/** One `select 1` on the database, bounded by `timeoutMs` so a hung server reads as unhealthy, not as a hung check. */
export async function checkDatabaseHealth(database: ServerDatabase, timeoutMs = 2000): Promise<DatabaseHealth> {
  const started = performance.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    await Promise.race([
      database.db.execute(sql`select 1`),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs) }),
    ])
    return { ok: true, kind: database.kind, latencyMs: Math.round((performance.now() - started) * 10) / 10 }
  }
  catch (error) {
    return { ok: false, kind: database.kind, error: (error as Error).message }
  }
  finally {
    clearTimeout(timer)
  }
}
