import { redactUrl } from '../utils/redis/redis-client'
import { closeDatabase, startDatabase, startDatabaseOnFirstUse } from '../utils/database/use-database'

/**
 * Opens the server's database (`NUXT_DATABASE_URL`'s Postgres at start-up; the embedded PGlite under `.data/` on
 * first use, since it costs memory and seconds an instance may never need) and applies its
 * migrations, bundled as server assets by nuxt.config's `nitro.serverAssets`; closes it on Nitro's 'close'. Requests
 * that need it wait for the opening; when it fails, they answer 503 and GET /api/health says why.
 */
export default defineNitroPlugin((nitroApp) => {
  const config = useRuntimeConfig()
  const assets = useStorage('assets:database-migrations')
  const read = async (path: string) => {
    const raw = await assets.getItemRaw<string | Uint8Array>(path)
    if (raw === null || raw === undefined) return null
    return typeof raw === 'string' ? raw : new TextDecoder().decode(raw)
  }
  const url = String(config.databaseUrl ?? '').trim()
  if (!url) {
    startDatabaseOnFirstUse({ databaseDir: config.databaseDir }, read)
    console.info('[database] embedded PGlite opens on first use')
    nitroApp.hooks.hook('close', closeDatabase)
    return
  }
  startDatabase({ databaseUrl: config.databaseUrl, databaseDir: config.databaseDir }, read).then(
    () => console.info(`[database] ${redactUrl(url)} is ready`),
    error => console.error(`[database] could not open ${redactUrl(url)}: ${(error as Error).message}`),
  )
  nitroApp.hooks.hook('close', closeDatabase)
})
