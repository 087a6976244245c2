import { passkeyRefusal } from '../../utils/accounts/passkey-refusal'
import { countPasskeyAttempt, passkeyStepAnswer, preparePasskeyRequest, storeChallenge, takeChallenge } from '../../utils/accounts/passkey-ceremony'
import { useAccountStore } from '../../utils/accounts/use-account-store'
import { signInAccountSession } from '../../utils/security/browser-session'
import { userError } from '../../utils/http/user-error'

/**
 * POST /api/accounts/sign-in (nuxt-auth-utils' WebAuthn authentication, two steps): any passkey of an account of
 * this server (discoverable credentials: no name asked). Signs the browser in to the passkey's account.
 */
const authenticate = defineWebAuthnAuthenticateEventHandler({
  async getOptions(event, body) {
    await countPasskeyAttempt(event, body)
    return { userVerification: 'preferred' }
  },
  storeChallenge: (event, challenge, attemptId) => storeChallenge(event, 'sign-in', '', challenge, attemptId),
  getChallenge: (event, attemptId) => takeChallenge(event, 'sign-in', attemptId),
  async getCredential(_event, credentialId) {
    const passkey = await (await useAccountStore()).getPasskey(String(credentialId))
    if (!passkey) throw userError(401, undefined, 'server.passkey.unknown')
    return { id: passkey.credentialId, publicKey: passkey.publicKey, counter: passkey.counter, backedUp: false, transports: passkey.transports as never, accountId: passkey.accountId }
  },
  async onSuccess(event, { credential, authenticationInfo }) {
    const store = await useAccountStore()
    await store.updateCounter(credential.id, authenticationInfo.newCounter)
    const accountId = (credential as { accountId?: string }).accountId ?? ''
    if (!(await store.getAccount(accountId))) throw userError(401, undefined, 'server.account.gone')
    await signInAccountSession(event, accountId)
  },
})

export default defineEventHandler(async (event) => {
  preparePasskeyRequest(event)
  return passkeyStepAnswer(await authenticate(event).catch(passkeyRefusal))
})
