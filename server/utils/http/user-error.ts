/**
 * An HTTP error whose message a person reads: h3's `createError` with the English as `message` (what older clients,
 * logs and curl show) and the code and parameters in `data`, which h3 sends in the JSON body for the app to translate.
 */
import { createError } from 'h3'
import type { H3Error } from 'h3'
import { serverText } from '#shared/errors/server-messages'
import type { ServerMessageCode } from '#shared/errors/server-messages'
import type { CodedParams, CodedText } from '#shared/errors/coded-text'

export type { ServerMessageCode }

export function userError(statusCode: number, statusMessage: string | undefined, code: ServerMessageCode, params: CodedParams = {}): H3Error {
  return codedError(statusCode, statusMessage, serverText(code, params))
}

/** `userError` for a sentence already coded (a refusal that a helper worded before the route answered). */
export function codedError(statusCode: number, statusMessage: string | undefined, text: CodedText): H3Error {
  return createError({ statusCode, ...(statusMessage ? { statusMessage } : {}), message: text.message, data: { code: text.code, params: text.params } })
}
