import { guardApiRequest } from '../utils/security/api-access'

/** Every /api request passes the checks of guardApiRequest (body size, same site, sign-in, session, rate). */
export default defineEventHandler(async (event) => {
  if (event.path.startsWith('/api/') || event.path === '/api') await guardApiRequest(event)
})
