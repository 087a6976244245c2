import { syncEnabled } from './use-sync'

/** Refuses a sync route with 404 when the operator has not turned sync on. */
export function requireSync(): void {
  if (!syncEnabled()) throw createError({ statusCode: 404, statusMessage: 'Not Found', message: 'Sync is off on this server (NUXT_SYNC).' })
}
