import { useDatabase } from '../database/use-database'
import { createShareLinkStore } from './share-link-store'
import type { ShareLinkStore } from './share-link-store'

/** The server's share links, in its database (Nitro only); while the database cannot be opened, every use answers 503. */
export async function useShareLinkStore(): Promise<ShareLinkStore> {
  const db = await useDatabase().catch((error: Error) => {
    throw createError({ statusCode: 503, statusMessage: 'Service Unavailable', message: `The server's database is unavailable: ${error.message}` })
  })
  return createShareLinkStore(db)
}
