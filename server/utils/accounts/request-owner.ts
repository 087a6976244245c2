import type { H3Event } from 'h3'
import { readBrowserSession } from '../security/browser-session'

/** Who a request acts for: the owner of the rows it may read and write. */
export interface RequestOwner {
  ownerId: string
  accountId: string | null
  role: 'admin' | 'member' | null
}

/**
 * The owner of the request, or 401. Without accounts, one browser session is one owner (two tabs of one browser
 * share it); the accounts feature replaces this with the signed-in account.
 */
export async function requireOwner(event: H3Event): Promise<RequestOwner> {
  const session = await readBrowserSession(event)
  if (!session) throw createError({ statusCode: 401, statusMessage: 'Unauthorized', message: 'No session. Reload the app.' })
  return { ownerId: session.id, accountId: null, role: null }
}
