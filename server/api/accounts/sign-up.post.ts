import { passkeyRefusal } from '../../utils/accounts/passkey-refusal'
import { randomUUID } from 'node:crypto'
import { userError } from '../../utils/http/user-error'
import { accountName, countPasskeyAttempt, passkeyStepAnswer, inviteTokenHash, passkeyRow, preparePasskeyRequest, refusalAsHttp, storeChallenge, takeChallenge, takenAttempt } from '../../utils/accounts/passkey-ceremony'
import { useAccountStore } from '../../utils/accounts/use-account-store'
import { signInAccountSession } from '../../utils/security/browser-session'

const NEW_ACCOUNT_KEY = 'plugboardNewAccountId'

/**
 * POST /api/accounts/sign-up (nuxt-auth-utils' WebAuthn registration, two steps): `{ user: { userName, invite? } }`.
 * Without an invite it makes the first account, the admin, and is refused once any account exists; with an invite
 * token it makes a member and uses the invite up. Signs the browser in to the new account.
 */
const register = defineWebAuthnRegisterEventHandler({
  async validateUser(user) {
    const name = accountName(user.userName)
    const given = (user as unknown as { invite?: unknown }).invite
    const invite = typeof given === 'string' ? given : ''
    const store = await useAccountStore()
    // checked before the person is asked for a passkey; the same checks run again in the transaction that creates it
    if (invite ? !(await store.inviteUsable(inviteTokenHash(invite), Date.now())) : (await store.countAccounts()) > 0) {
      throw userError(403, undefined, invite ? 'server.account.inviteInvalid' : 'server.account.adminExists')
    }
    return { userName: name, displayName: name, invite }
  },
  async getOptions(event, body) {
    await countPasskeyAttempt(event, body)
    const id = randomUUID()
    event.context[NEW_ACCOUNT_KEY] = id
    return { userID: new TextEncoder().encode(id), authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' } }
  },
  storeChallenge: (event, challenge, attemptId) => storeChallenge(event, 'sign-up', String(event.context[NEW_ACCOUNT_KEY]), challenge, attemptId),
  getChallenge: (event, attemptId) => takeChallenge(event, 'sign-up', attemptId),
  async onSuccess(event, { user, credential }) {
    const now = Date.now()
    const attempt = takenAttempt(event)
    const store = await useAccountStore()
    const account = { id: attempt.accountId, name: user.userName, createdAt: now }
    const invite = (user as unknown as { invite?: string }).invite
    try {
      const created = invite
        ? await store.createFromInvite(inviteTokenHash(invite), account, passkeyRow(credential, now), now)
        : await store.createFirstAdmin(account, passkeyRow(credential, now))
      await signInAccountSession(event, created.id)
    }
    catch (error) {
      throw refusalAsHttp(error)
    }
  },
})

export default defineEventHandler(async (event) => {
  preparePasskeyRequest(event)
  return passkeyStepAnswer(await register(event).catch(passkeyRefusal))
})
