import type { ChatModel } from '#shared/loop/chat-model'
import type { ModelMessage } from '#shared/types/chat'

/** The instruction of a title request; the fake upstream of the browser tests knows a title request by it. */
export const TITLE_INSTRUCTION = 'Write a title for this conversation in at most 6 words, in the language of the user. Reply with the title only: no quotes, no final full stop.'

/** Words a title keeps. */
export const TITLE_MAX_WORDS = 6
/** Characters a title keeps (a model that ignores the word limit, or writes one very long word). */
const TITLE_MAX_CHARACTERS = 60
/** Characters of the question and of the reply sent to be named. */
const EXCERPT_CHARACTERS = 1_200

export interface AskForTitleOptions {
  /** Gives up after this long (a title is a nicety: it never holds anything up). @default 15000 */
  timeoutMs?: number
  /** Tokens the model may write. @default 24 */
  maxTokens?: number
  signal?: AbortSignal
}

/** The request's messages: the instruction, then the first question and the start of its reply. */
export function titleRequestMessages(question: string, reply: string): ModelMessage[] {
  return [
    { role: 'system', content: TITLE_INSTRUCTION },
    { role: 'user', content: `Question:\n${question.slice(0, EXCERPT_CHARACTERS)}\n\nReply:\n${reply.slice(0, EXCERPT_CHARACTERS)}` },
  ]
}

/**
 * What the model wrote as a title, made one: the first non-empty line, without a "Title:" label, quotes, markdown
 * marks or a final full stop, at most TITLE_MAX_WORDS words. Empty when nothing usable is left.
 */
export function cleanTitle(text: string): string {
  const line = text.replace(/<think>[\s\S]*?<\/think>/g, '').split('\n').map(part => part.trim()).find(Boolean) ?? ''
  const words = line
    .replace(/^(?:title)\s*:\s*/i, '')
    .replace(/[*_`#]/g, '')
    .replace(/^["'“”‘’«»\s]+|["'“”‘’«»\s]+$/g, '')
    .replace(/[.!。]+$/u, '')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, TITLE_MAX_WORDS)
  const title = words.join(' ')
  return title.length > TITLE_MAX_CHARACTERS ? `${title.slice(0, TITLE_MAX_CHARACTERS - 1).trimEnd()}…` : title
}

/**
 * Asks `model` for a short title of the exchange: one bounded request (few tokens, no tools, a timeout). Resolves
 * with the cleaned title, or an empty string when the model failed or wrote nothing usable: a chat keeps the title
 * it has then.
 */
export async function askForTitle(model: ChatModel, question: string, reply: string, options: AskForTitleOptions = {}): Promise<string> {
  const { timeoutMs = 15_000, maxTokens = 24 } = options
  const signals = [AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])]
  const signal = signals.length === 1 ? signals[0]! : AbortSignal.any(signals)
  let text = ''
  for await (const event of model.stream({ messages: titleRequestMessages(question, reply), parameters: { maxTokens }, signal })) {
    if (event.type === 'text-delta') text += event.text
    else if (event.type === 'error') throw event.error
    if (text.length > 400) break
  }
  return cleanTitle(text)
}
