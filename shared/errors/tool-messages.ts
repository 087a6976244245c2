/**
 * The English of the app's own words around a tool's failure (timed out, failed, cancelled, interrupted, bad
 * arguments), by code. The model and the stored result read this English; the tool card finds the code again from
 * the stored words (`readCodedText`, so older rows are said too) and shows `codes.tool.*` in the user's language.
 * What the tool itself said (`{reason}`) stays as written.
 */
import { codedText, readCodedText } from './coded-text'
import type { CodedParams, CodedText } from './coded-text'

export const TOOL_MESSAGES = {
  'tool.timedOut': 'tool "{name}" timed out after {duration}',
  'tool.failed': 'tool "{name}" failed: {reason}',
  'tool.cancelledByUser': 'tool "{name}" was cancelled by the user',
  'tool.cancelled': 'Cancelled by the user.',
  'tool.interrupted': 'Not run: the reply was interrupted by an error.',
  'tool.invalidArguments': 'invalid arguments for "{name}": {reason}',
  'tool.noSuchTool': 'no tool named "{name}" is available. Available tools: {available}',
} as const

export type ToolMessageCode = keyof typeof TOOL_MESSAGES

/** A tool failure's wrapper sentence by its code. */
export function toolText(code: ToolMessageCode, params: CodedParams = {}): CodedText {
  return codedText(TOOL_MESSAGES, code, params)
}

/** The coded sentence a stored tool error's words were made from, or undefined for a tool's own words. */
export function readToolText(message: string): CodedText | undefined {
  return readCodedText(TOOL_MESSAGES, message)
}
