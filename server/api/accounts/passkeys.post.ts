import { passkeyRefusal } from '../../utils/accounts/passkey-refusal'
import { requireOwner } from '../../utils/accounts/request-owner'
import { countPasskeyAttempt, passkeyRow, passkeyStepAnswer, preparePasskeyRequest, storeChallenge, takeChallenge, takenAttempt } from '../../utils/accounts/passkey-ceremony'
import { useAccountStore } from '../../utils/accounts/use-account-store'
import { userError } from '../../utils/http/user-error'

/** The signed-in account, or 401; the registration steps below run only for it. */
async function signedInAccount(event: Parameters<typeof requireOwner>[0]) {
  const { accountId } = await requireOwner(event)
  const account = accountId ? await (await useAccountStore()).getAccount(accountId) : undefined
  if (!account) throw userError(401, undefined, 'server.passkey.signInToAdd')
  return account
}

/**
 * POST /api/accounts/passkeys (WebAuthn registration, two steps): "Add a passkey" for the signed-in account, e.g.
 * one on another device or in another password manager. Its passkeys already known are excluded.
 */
const register = defineWebAuthnRegisterEventHandler({
  async validateUser(_user, event) {
    const account = await signedInAccount(event)
    return { userName: account.name, displayName: account.name }
  },
  async getOptions(event, body) {
    await countPasskeyAttempt(event, body)
    const account = await signedInAccount(event)
    return { userID: new TextEncoder().encode(account.id), authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' } }
  },
  async excludeCredentials(event) {
    const account = await signedInAccount(event)
    return (await (await useAccountStore()).listPasskeys(account.id)).map(passkey => ({ id: passkey.credentialId, transports: passkey.transports as never }))
  },
  storeChallenge: async (event, challenge, attemptId) => storeChallenge(event, 'add-passkey', (await signedInAccount(event)).id, challenge, attemptId),
  getChallenge: (event, attemptId) => takeChallenge(event, 'add-passkey', attemptId),
  async onSuccess(event, { credential }) {
    const account = await signedInAccount(event)
    // the attempt must have been started by this same account: a challenge is never moved to another one
    if (takenAttempt(event).accountId !== account.id) throw userError(403, undefined, 'server.passkey.otherAccount')
    await (await useAccountStore()).addPasskey({ ...passkeyRow(credential, Date.now()), accountId: account.id })
  },
})

export default defineEventHandler(async (event) => {
  preparePasskeyRequest(event)
  return passkeyStepAnswer(await register(event).catch(passkeyRefusal))
})
