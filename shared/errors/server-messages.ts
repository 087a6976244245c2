/**
 * The English of the server's refusals a person reads (share links, passkeys and accounts, rate limits; sync,
 * workflows and server-run replies, and the MCP relay in the files merged below), by code.
 * The server sends the code and parameters in its error's `data` (server/utils/http/user-error.ts); the app shows
 * the code's catalog entry (`codes.server.*`) in the user's language and this English when it does not know the code.
 */
import { codedText } from './coded-text'
import type { CodedParams, CodedText } from './coded-text'
import { JOB_SERVER_MESSAGES } from './server-messages-jobs'
import { ACCESS_SERVER_MESSAGES } from './server-messages-access'
import { RELAY_SERVER_MESSAGES } from './server-messages-relay'
import { SYNC_SERVER_MESSAGES } from './server-messages-sync'

const GENERAL_SERVER_MESSAGES = {
  'server.share.missing': 'There is no shared chat at this link.',
  'server.share.revoked': 'This link was revoked: its owner no longer shares this chat.',
  'server.share.tooMany': 'You have {max} shared links already: revoke one (Settings → Data) before you share another chat.',
  'server.share.noSuchLink': 'No such shared link.',
  'server.passkey.copied': 'This passkey was refused: its use count went backwards, as a copied passkey\'s does. Sign in with the passkey on your own device.',
  'server.passkey.unverified': 'This passkey answer could not be verified. Try again.',
  'server.passkey.attemptExpired': 'This passkey attempt expired or was already used. Try again.',
  'server.passkey.unknown': 'This passkey is not one of this server\'s accounts (it may have been removed).',
  'server.passkey.otherAccount': 'This passkey attempt belongs to another account.',
  'server.passkey.signInToAdd': 'Sign in to add a passkey.',
  'server.account.gone': 'This account no longer exists on this server.',
  'server.account.nameLength': 'Give your account a name of 1 to {max} characters.',
  'server.account.adminOnly': 'Only the admin can do this.',
  'server.account.adminCannotLeave': 'The admin account cannot remove itself.',
  'server.account.noSuchAccount': 'No such account.',
  'server.account.adminExists': 'This server has an admin already: ask them for an invite link.',
  'server.account.signInToSee': 'Sign in to see your account.',
  'server.account.noSession': 'No session. Reload the app.',
  'server.account.signInNeeded': 'Sign in with your passkey to use this server: it has accounts.',
  'server.account.goneSignInAgain': 'This account no longer exists on this server. Sign in with another one.',
  'server.account.off': 'Accounts are off on this server (NUXT_ACCOUNTS).',
  'server.account.inviteInvalid': 'This invite link is not valid: it was used, it expired or it was never made. Ask for a new one.',
  'server.auth.wrongPassword': 'That password is not right.',
  'server.rateLimited': 'Too many requests to this server: at most {limit} a minute. Try again in {seconds} s.',
  'server.databaseUnavailable': 'The server\'s database is unavailable: {reason}',
  'server.databaseNotAvailable': 'The server\'s database is not available: {reason}',
} as const

export const SERVER_MESSAGES = { ...GENERAL_SERVER_MESSAGES, ...SYNC_SERVER_MESSAGES, ...JOB_SERVER_MESSAGES, ...RELAY_SERVER_MESSAGES, ...ACCESS_SERVER_MESSAGES } as const

export type ServerMessageCode = keyof typeof SERVER_MESSAGES

/** A server refusal's sentence by its code. */
export function serverText(code: ServerMessageCode, params: CodedParams = {}): CodedText {
  return codedText(SERVER_MESSAGES, code, params)
}

/** Whether `code` is one of the server's (a code read from the network is only a string). */
export function isServerMessageCode(code: string): code is ServerMessageCode {
  return Object.hasOwn(SERVER_MESSAGES, code)
}
