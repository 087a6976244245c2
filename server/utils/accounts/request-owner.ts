import type { H3Event } from 'h3'
import { readBrowserSession } from '../security/browser-session'
import type { BrowserSession } from '../security/browser-session'
import { accountsOn } from './accounts-mode'
import { useAccountStore } from './use-account-store'
import { userError } from '../http/user-error'
import type { ServerMessageCode } from '../http/user-error'

/** Who a request acts for: the one id every owned record (workflows, jobs, slots, rate limits) is keyed by. */
export interface RequestOwner {
  /** Accounts off: the browser session's id. Accounts on: the account's id. */
  ownerId: string
  accountId: string | null
  role: 'admin' | 'member' | null
}

const OWNER_KEY = 'plugboardOwner'

function unauthorized(code: ServerMessageCode): Error {
  return userError(401, 'Unauthorized', code)
}

/**
 * The caller's owner identity, or 401. Accounts off: the browser session as before. Accounts on
 * (`NUXT_ACCOUNTS=passkeys`): the signed-in account, looked up on every request so a removed account's session
 * stops at once. Kept on the event, so the guard and the route ask the database once.
 */
export async function requireOwner(event: H3Event): Promise<RequestOwner> {
  const known = event.context[OWNER_KEY] as RequestOwner | undefined
  if (known) return known
  const owner = await resolveOwner(event, await readBrowserSession(event))
  event.context[OWNER_KEY] = owner
  return owner
}

async function resolveOwner(event: H3Event, session: BrowserSession | undefined): Promise<RequestOwner> {
  if (!accountsOn(event)) {
    if (!session) throw unauthorized('server.account.noSession')
    return { ownerId: session.id, accountId: null, role: null }
  }
  if (!session?.accountId) throw unauthorized('server.account.signInNeeded')
  const store = await useAccountStore().catch((error: unknown) => {
    throw userError(503, 'Service Unavailable', 'server.databaseNotAvailable', { reason: error instanceof Error ? error.message : String(error) })
  })
  const account = await store.getAccount(session.accountId)
  if (!account) throw unauthorized('server.account.goneSignInAgain')
  return { ownerId: account.id, accountId: account.id, role: account.role }
}
