import { continueBalanced, type BalancedScanState } from './text-tool-calls/safe-json'

/**
 * Whether a text that grows by appends is one complete JSON value (what `JSON.parse` accepts), answered in time
 * proportional to what was appended since the last question: an object, array or string is scanned on from where
 * the last question stopped and parsed once, when it has closed. (A bare number or literal is parsed whole; tool
 * arguments are objects.)
 */
export interface CompleteJsonTracker {
  append: (delta: string) => void
  /** Starts again on a new text. */
  reset: (text: string) => void
  isComplete: () => boolean
  text: () => string
}

/** JSON's own white space: `JSON.parse` refuses any other around a value. */
const JSON_SPACE = /[ \t\n\r]*/y
const JSON_NON_SPACE = /[^ \t\n\r]/g

export function createCompleteJsonTracker(initial = ''): CompleteJsonTracker {
  let text = ''
  /** How far leading white space has been read. */
  let first = 0
  let container: BalancedScanState | undefined
  let string: { index: number, escaped: boolean } | undefined
  /** Where the value closed, once it has. */
  let valueEnd = -1
  /** The closed value parsed (once), or undefined before it closed. */
  let valueParses: boolean | undefined
  /** How far the text after the value has been found to be white space only. */
  let tailChecked = 0
  /** Something other than white space followed the value: no append can make the text valid again. */
  let spoilt = false

  function reset(next: string): void {
    text = next
    first = 0
    container = undefined
    string = undefined
    valueEnd = -1
    valueParses = undefined
    tailChecked = 0
    spoilt = false
  }

  function closeValue(): boolean {
    if (valueEnd !== -1) return true
    const char = text[first]
    if (char === '{' || char === '[') {
      container ??= { index: first, depth: 0, inString: false, escaped: false }
      const scan = continueBalanced(text, container)
      if (scan.complete) valueEnd = scan.end
    }
    else {
      string ??= { index: first + 1, escaped: false }
      let { index, escaped } = string
      for (; index < text.length; index++) {
        if (escaped) escaped = false
        else if (text[index] === '\\') escaped = true
        else if (text[index] === '"') {
          valueEnd = index + 1
          break
        }
      }
      Object.assign(string, { index, escaped })
    }
    if (valueEnd === -1) return false
    valueParses = parses(text.slice(first, valueEnd))
    tailChecked = valueEnd
    return true
  }

  function isComplete(): boolean {
    JSON_SPACE.lastIndex = first
    first += JSON_SPACE.exec(text)![0].length
    if (first >= text.length) return false
    if (!'{["'.includes(text[first]!)) return parses(text)
    if (spoilt || !closeValue()) return false
    JSON_NON_SPACE.lastIndex = tailChecked
    if (JSON_NON_SPACE.test(text)) spoilt = true
    tailChecked = text.length
    return !spoilt && valueParses === true
  }

  reset(initial)
  return {
    append(delta) {
      text += delta
    },
    reset,
    isComplete,
    text: () => text,
  }
}

function parses(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  }
  catch {
    return false
  }
}
