import { createHash, randomBytes } from 'node:crypto'
import type { H3Event } from 'h3'
import type { ChallengePurpose } from '../database/account-tables'
import { consumeRateLimit } from '../security/rate-limit'
import type { Challenge, Passkey } from './account-store'
import { AccountRefusal } from './account-store'
import { accountsOn } from './accounts-mode'
import { pinPasskeyOrigin } from './passkey-origin'
import { useAccountStore } from './use-account-store'
import { userError } from '../http/user-error'

/** How long a WebAuthn challenge may be answered: enough for a person to touch their key, not to replay it later. */
export const CHALLENGE_TTL_MS = 2 * 60 * 1000

/** How long an invite link works. */
export const INVITE_TTL_MS = 72 * 60 * 60 * 1000

/** The longest name a person may give their account. */
export const ACCOUNT_NAME_MAX = 64

const ATTEMPT_KEY = 'plugboardPasskeyAttempt'

/** 404 when accounts are off: the account routes do not exist then. */
export function requireAccountsOn(event: H3Event): void {
  if (!accountsOn(event)) throw userError(404, 'Not Found', 'server.account.off')
}

/**
 * What every passkey route checks before nuxt-auth-utils reads the body: accounts on, a declared small body (the
 * handlers read it whole), the site's origin (`pinPasskeyOrigin`).
 */
export function preparePasskeyRequest(event: H3Event): void {
  requireAccountsOn(event)
  if (getRequestHeader(event, 'content-length') === undefined) {
    throw createError({ statusCode: 411, statusMessage: 'Length Required', message: 'A passkey request must declare its length.' })
  }
  pinPasskeyOrigin(event)
}

/** Counts the first step of a ceremony (the options) against the sign-in budget per IP, like the password sign-in. */
export async function countPasskeyAttempt(event: H3Event, body: { verify?: unknown }): Promise<void> {
  if (!body.verify) await consumeRateLimit(event, 'sign-in', undefined)
}

export async function storeChallenge(event: H3Event, purpose: ChallengePurpose, accountId: string, challenge: string, attemptId: string): Promise<void> {
  const now = Date.now()
  await (await useAccountStore()).putChallenge({ attemptId, challenge, purpose, accountId, expiresAt: now + CHALLENGE_TTL_MS }, now)
}

/** The attempt's challenge, used up as it is read; a replayed, expired or unknown attempt is refused. */
export async function takeChallenge(event: H3Event, purpose: ChallengePurpose, attemptId: string): Promise<string> {
  const attempt = await (await useAccountStore()).takeChallenge(String(attemptId), purpose, Date.now())
  if (!attempt) throw userError(400, 'Bad Request', 'server.passkey.attemptExpired')
  event.context[ATTEMPT_KEY] = attempt
  return attempt.challenge
}

/** The attempt whose challenge `takeChallenge` used up in this request. */
export function takenAttempt(event: H3Event): Challenge {
  const attempt = event.context[ATTEMPT_KEY] as Challenge | undefined
  if (!attempt) throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: 'No passkey attempt.' })
  return attempt
}

/** A person's account name: trimmed, 1 to 64 characters, no control characters. */
export function accountName(value: unknown): string {
  // eslint-disable-next-line no-control-regex
  const name = typeof value === 'string' ? value.replace(/[\u0000-\u001f\u007f]/g, '').trim() : ''
  if (!name || name.length > ACCOUNT_NAME_MAX) {
    throw userError(400, 'Bad Request', 'server.account.nameLength', { max: ACCOUNT_NAME_MAX })
  }
  return name
}

export function newInviteToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Only this is stored: the link's token itself never reaches the database. */
export function inviteTokenHash(token: string): string {
  return createHash('sha256').update(`plugboard-invite:${token}`).digest('hex')
}

/** The credential nuxt-auth-utils hands back after a registration, as a row of `passkeys`. */
export function passkeyRow(credential: { id: string, publicKey: string, counter: number, transports?: string[] }, now: number): Omit<Passkey, 'accountId'> {
  return { credentialId: credential.id, publicKey: credential.publicKey, counter: credential.counter, transports: credential.transports ?? [], createdAt: now }
}

/** A refusal of the store (no second admin, a used invite) as a 403 with its words; anything else as it is. */
export function refusalAsHttp(error: unknown): unknown {
  return error instanceof AccountRefusal ? createError({ statusCode: 403, statusMessage: 'Forbidden', message: error.message }) : error
}

/**
 * What a passkey route answers: the options step as nuxt-auth-utils made it (the browser needs them whole), the
 * verification step cut to `{ verified }` (its details are the server's business).
 */
export function passkeyStepAnswer(result: unknown): unknown {
  if (result && typeof result === 'object' && 'verified' in result) return { verified: (result as { verified?: unknown }).verified === true }
  return result
}
