import { openSharedChat } from '../../utils/share/open-shared-chat'
import { userError } from '../../utils/http/user-error'

/**
 * GET /api/shared/:token: the shared chat, to anybody holding the link (no session needed); 404 for a token that
 * never was, 410 for a revoked one. Never cached by a shared cache, never indexed.
 */
export default defineEventHandler(async (event) => {
  setResponseHeaders(event, { 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow' })
  const opened = await openSharedChat(getRouterParam(event, 'token') ?? '')
  if (!opened.ok) throw userError(opened.statusCode, opened.statusCode === 410 ? 'Gone' : 'Not Found', opened.code)
  return opened.chat
})
