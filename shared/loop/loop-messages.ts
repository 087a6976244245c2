/**
 * The English of the loop's notices under a reply (step cap, repeated call, ...), by code: the app shows the code's
 * catalog entry (`codes.loop.*`) in the user's language, and the notice's `message` where it does not know the code.
 */
import { codedText } from '../errors/coded-text'
import type { CodedParams } from '../errors/coded-text'
import type { LoopNotice } from './loop-types'

export const LOOP_MESSAGES = {
  'loop.textToolCalls': 'This model wrote its tool calls as text; Plugboard read and ran them.',
  'loop.stepCap': 'Stopped after {steps} steps. Press Continue to let the model go on.',
  'loop.repeatedCall': '"{name}" was called {count} times in a row with the same arguments; Plugboard did not run it again and told the model.',
  'loop.somethingWentWrong': 'Something went wrong: {reason}',
  'loop.truncatedResult': 'The result of "{name}" was {length} characters; the model got the first {max}. The whole result is kept.',
} as const

export type LoopMessageCode = keyof typeof LOOP_MESSAGES

/** A notice of `kind` with its coded sentence. */
export function loopNotice(kind: LoopNotice['kind'], code: LoopMessageCode, params: CodedParams = {}): LoopNotice {
  const text = codedText(LOOP_MESSAGES, code, params)
  return { kind, message: text.message, code, params }
}
