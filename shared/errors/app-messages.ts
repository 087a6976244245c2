/**
 * The English of the browser's own sentences about sync, server-run replies and passkeys, by code: the app shows the
 * code's catalog entry (`codes.app.*`) in the user's language. Kept in shared/ because app/db (the sync outbox's file
 * uploads) may import only shared/ and Dexie.
 */
import { codedText, codedTextOfBody, codedTextWithReason, uncodedText } from './coded-text'
import type { CodedParams, CodedText } from './coded-text'

export const APP_MESSAGES = {
  'app.sync.unreachable': 'Could not reach the server ({reason}); retrying.',
  'app.sync.couldNotStart': 'Sync could not start: {reason}',
  'app.serverAnswered': 'The server answered {status}.',
  'app.sync.notOnServer': 'Not on the server: {reason}',
  'app.reply.eventTooLarge': 'The server sent an event too large to show (over 32 MB); the reply was cut here. Press Retry.',
  'app.reply.stoppedFollowing': 'This chat stopped following its reply: {reason} Then press Retry.',
  'app.reply.notStarted': 'The server could not start the chat (HTTP {status}).',
  'app.passkey.notUsed': 'The passkey was not used: the request was cancelled or timed out.',
} as const

export type AppMessageCode = keyof typeof APP_MESSAGES

/** One of the browser's own sentences by its code. */
export function appText(code: AppMessageCode, params: CodedParams = {}): CodedText {
  return codedText(APP_MESSAGES, code, params)
}

/** One of the browser's own sentences quoting another coded sentence (a server's refusal) as its `{reason}`. */
export function appTextWithReason(code: AppMessageCode, reason: CodedText, params: CodedParams = {}): CodedText {
  return codedTextWithReason(APP_MESSAGES, code, reason, params)
}

/** A server's refusal (an error response's JSON body) as words: its coded sentence, else its English, else its status. */
export function refusalText(body: unknown, status: number): CodedText {
  const coded = codedTextOfBody(body)
  if (coded) return coded
  const message = (body as { message?: unknown } | undefined)?.message
  return typeof message === 'string' && message.trim() ? uncodedText(message) : appText('app.serverAnswered', { status })
}
