import { isForbiddenKey } from '../../security/forbidden-keys'
import { tryParseJson } from '../../security/parse-json'

export type { JsonParseResult } from '../../security/parse-json'

/** JSON.parse for untrusted model output: never throws, drops prototype-polluting keys (the app's one parser). */
export const safeJsonParse = tryParseJson

/** Copies a decoded value without prototype-polluting keys and with a null-free plain-object shape. */
export function sanitizeValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sanitizeValue)
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      if (!isForbiddenKey(key)) copy[key] = sanitizeValue(item)
    }
    return copy
  }
  return value
}

export type BalancedScan = { complete: true, end: number } | { complete: false }

/** Where a balanced scan stopped: resumed by {@link continueBalanced} once the text has grown. */
export interface BalancedScanState { index: number, depth: number, inString: boolean, escaped: boolean }

/**
 * Finds where the JSON object or array opening at `start` closes, honouring strings and escapes.
 * Bracket kinds are not checked here: JSON.parse validates the slice afterwards.
 */
export function scanBalanced(text: string, start: number): BalancedScan {
  return continueBalanced(text, { index: start, depth: 0, inString: false, escaped: false })
}

/** {@link scanBalanced} from a kept state, which it advances to the end of `text` when the value is still open. */
export function continueBalanced(text: string, state: BalancedScanState): BalancedScan {
  let { index, depth, inString, escaped } = state
  for (; index < text.length; index++) {
    const char = text[index]
    if (inString) {
      if (escaped) escaped = false
      else if (char === '\\') escaped = true
      else if (char === '"') inString = false
      continue
    }
    if (char === '"') inString = true
    else if (char === '{' || char === '[') depth++
    else if (char === '}' || char === ']') {
      depth--
      if (depth === 0) return { complete: true, end: index + 1 }
    }
  }
  Object.assign(state, { index, depth, inString, escaped })
  return { complete: false }
}

/**
 * One left-to-right reading of a text's brackets, with its own idea of where strings are (it started at a bracket
 * outside any string). `open` holds the brackets still open, innermost last; a level may hold the brackets of
 * several readings that were merged once they agreed on where strings are.
 */
export interface BracketReading { index: number, inString: boolean, escaped: boolean, open: number[][] }

/**
 * Reads `text` on from `reading.index` and records in `closes`, for every opening bracket that is outside a string in
 * this reading, where it closes (`-1` while it is open). Positions are the text's plus `offset`. What
 * `scanBalanced(text, p)` answers depends only on the text from `p` on, so it is complete exactly when p's entry is
 * (ending after it), whichever reading recorded it.
 */
export function continueBracketReading(text: string, reading: BracketReading, offset: number, closes: Map<number, number>): void {
  let { index, inString, escaped } = reading
  const { open } = reading
  for (const end = offset + text.length; index < end; index++) {
    const char = text[index - offset]
    if (inString) {
      if (escaped) escaped = false
      else if (char === '\\') escaped = true
      else if (char === '"') inString = false
      continue
    }
    if (char === '"') inString = true
    else if (char === '{' || char === '[') {
      open.push([index])
      closes.set(index, -1)
    }
    else if ((char === '}' || char === ']') && open.length > 0) {
      for (const position of open.pop()!) closes.set(position, index)
    }
  }
  Object.assign(reading, { index, inString, escaped })
}
