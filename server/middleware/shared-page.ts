import { SHARED_VIEW_PREFIX } from '#shared/share/share-snapshot'
import { openSharedChat } from '../utils/share/open-shared-chat'
import { sharedPageStatusHtml } from '../utils/share/shared-page-status-html'
import { sharedPageWords } from '../utils/share/shared-page-language'

/**
 * The shared chat's page, `/s/<token>`: never indexed; a token that opens nothing gets a plain page with its
 * status (404, or 410 once revoked) instead of the app, so a wrong link loads no script at all.
 */
export default defineEventHandler(async (event) => {
  const path = event.path.split('?')[0]!
  if (!path.startsWith(SHARED_VIEW_PREFIX) || (event.method !== 'GET' && event.method !== 'HEAD')) return
  setResponseHeader(event, 'x-robots-tag', 'noindex, nofollow')
  const opened = await openSharedChat(path.slice(SHARED_VIEW_PREFIX.length))
  if (opened.ok) return
  setResponseStatus(event, opened.statusCode)
  setResponseHeaders(event, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
  const words = sharedPageWords(event, opened.statusCode === 410 ? 'revoked' : 'missing')
  return sharedPageStatusHtml(words.heading, words.sentence, words.lang)
})
