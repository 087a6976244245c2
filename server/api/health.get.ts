import { checkDatabaseHealth } from '../utils/database/database-health'
import { useServerDatabase } from '../utils/database/use-database'

/** GET /api/health: `{ ok, database: { ok, kind, latencyMs } }`, 503 when the database does not answer (for probes). */
export default defineEventHandler(async (event) => {
  const database = await useServerDatabase().then(
    open => checkDatabaseHealth(open),
    (error: Error) => ({ ok: false, error: error.message }),
  )
  if (!database.ok) setResponseStatus(event, 503)
  return { ok: database.ok, database }
})
