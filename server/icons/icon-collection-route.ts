import { parseIconRequest } from '../utils/icons/icon-request'
import { useIconStore } from '../utils/icons/icon-store-location'

/**
 * `GET /api/_nuxt_icon/<prefix>.json?icons=a,b`, the route @nuxt/icon's client asks (modules/iconify-offline.ts
 * puts this handler in place of the module's own): any collection of `@iconify/json`, read lazily from the
 * build's shards. Unknown collection → 404; malformed or oversized request → 400; unknown icons → 200 with
 * `not_found`, which the client takes as missing (the UI shows its fallback icon).
 */
export default defineEventHandler(async (event) => {
  const request = parseIconRequest(getRouterParam(event, 'collection'), getQuery(event).icons)
  if (!request.ok) throw createError({ statusCode: request.status, statusMessage: request.status === 404 ? 'Not Found' : 'Bad Request', message: request.message, data: { message: request.message } })
  const store = useIconStore(useRuntimeConfig(event))
  const icons = await store.getIcons(request.prefix, request.names)
  if (!icons) throw createError({ statusCode: 404, statusMessage: 'Not Found', message: 'Unknown icon collection.' })
  // a build's icons never change: the browser may keep them for a day
  setResponseHeader(event, 'cache-control', 'public, max-age=86400')
  return icons
})
