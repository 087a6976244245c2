import type { H3Event } from 'h3'
import { readBrowserSession } from '../security/browser-session'

/** Who a request acts for: the owner of the rows it reads and writes. */
export interface RequestOwner {
  /** The `owner_id` of the server's rows. */
  ownerId: string
  /** The signed-in account, when accounts are on. */
  accountId: string | null
  role: 'admin' | 'member' | null
}

/**
 * The owner of the request. Without accounts the browser session is the only identity there is, so its id owns
 * the rows; a request without a session gets 401. (With accounts on, the signed-in account owns them.)
 */
export async function requireOwner(event: H3Event): Promise<RequestOwner> {
  const session = await readBrowserSession(event)
  if (!session) throw createError({ statusCode: 401, statusMessage: 'Unauthorized', message: 'No session. Reload the app.' })
  return { ownerId: session.id, accountId: null, role: null }
}
