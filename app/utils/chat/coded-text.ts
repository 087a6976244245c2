/**
 * A coded sentence (shared/errors/coded-text.ts) in the user's language: its catalog entry under `codes.`, or the
 * English it came with when this app does not know the code (a newer server) or its catalog part is not loaded yet.
 */
import type { CodedText } from '#shared/errors/coded-text'
import { readToolText } from '#shared/errors/tool-messages'

export type Translate = (key: string, values?: Record<string, unknown>) => string

export function sayCodedText(t: Translate, text: CodedText): string {
  const key = `codes.${text.code}`
  const said = t(key, text.reason ? { ...text.params, reason: sayCodedText(t, text.reason) } : text.params)
  return said === key ? text.message : said
}

/** Several coded sentences as one paragraph; `fallback` when there are none. */
export function sayCodedTexts(t: Translate, parts: readonly CodedText[] | undefined, fallback = ''): string {
  return parts?.length ? parts.map(part => sayCodedText(t, part)).join(' ') : fallback
}

/** An error's words: its coded sentence (`error.text`, as ShareLinkError carries) translated, else its message. */
export function sayErrorText(t: Translate, error: unknown): string {
  const text = (error as { text?: CodedText } | undefined)?.text
  if (text && typeof text.code === 'string' && typeof text.message === 'string') return sayCodedText(t, text)
  return error instanceof Error ? error.message : String(error)
}

/** A tool error's words on its card: the app's own wrapper sentence in the user's language, the tool's words as written. */
export function sayToolError(t: Translate, message: string): string {
  const text = readToolText(message)
  return text ? sayCodedText(t, text) : message
}
