import { appText } from '#shared/errors/app-messages'
import { codedTextOfBody } from '#shared/errors/coded-text'
import { sayCodedText } from '../coded-text'
import type { Translate } from '../coded-text'

/** The words to show for a failed passkey step: the server's message, or the browser's (e.g. the person cancelled). */
export function passkeyErrorMessage(error: unknown, t?: Translate): string {
  const data = (error as { data?: { message?: string } }).data
  const coded = t ? codedTextOfBody(data) : undefined
  if (coded && t) return sayCodedText(t, coded)
  if (data?.message) return data.message
  if (error instanceof Error && error.name === 'NotAllowedError') return t ? sayCodedText(t, appText('app.passkey.notUsed')) : appText('app.passkey.notUsed').message
  return error instanceof Error ? error.message : String(error)
}

/** Only a path of this app: never an absolute or protocol-relative URL from the query (open redirect). */
export function safeRedirect(target: unknown): string {
  const path = typeof target === 'string' ? target : '/'
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path : '/'
}
