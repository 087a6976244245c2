import type { BlockResult, ParseContext } from './text-tool-call-types'
import { makeCall, needMoreOrText, resolveToolName } from './build-call'
import { isForbiddenKey } from '../../security/forbidden-keys'

/** String delimiters: FunctionGemma writes `<escape>`, Gemma 4 writes `<|"|>`. */
const STRING_DELIMITERS = ['<escape>', '<|"|>']

class EndOfInput extends Error {}
class GemmaSyntaxError extends Error {}

/**
 * FunctionGemma / Gemma 4 `call:name{key:value,...}` at `start`: bare keys, delimited strings, numbers,
 * booleans, nested objects and lists.
 */
export function parseGemmaCall(text: string, start: number, context: ParseContext): BlockResult {
  let index = start + 'call:'.length
  const peek = (): string => {
    if (index >= text.length) throw new EndOfInput()
    return text[index]!
  }
  const readValue = (): unknown => {
    const char = peek()
    const delimiter = STRING_DELIMITERS.find(item => text.startsWith(item, index))
    if (delimiter) {
      const close = text.indexOf(delimiter, index + delimiter.length)
      if (close === -1) throw new EndOfInput()
      const value = text.slice(index + delimiter.length, close)
      index = close + delimiter.length
      return value
    }
    if (STRING_DELIMITERS.some(item => item.startsWith(text.slice(index)))) throw new EndOfInput()
    if (char === '{') return readObject()
    if (char === '[') {
      index++
      const items: unknown[] = []
      while (peek() !== ']') {
        items.push(readValue())
        if (peek() === ',') index++
        else if (peek() !== ']') throw new GemmaSyntaxError()
      }
      index++
      return items
    }
    const match = /^[^,}\]]*/.exec(text.slice(index))!
    if (index + match[0].length >= text.length) throw new EndOfInput()
    index += match[0].length
    const word = match[0].trim()
    if (word === 'true' || word === 'false') return word === 'true'
    if (word === 'null') return null
    const number = Number(word)
    return word !== '' && Number.isFinite(number) ? number : word
  }
  const readObject = (): Record<string, unknown> => {
    index++
    const result: Record<string, unknown> = {}
    while (peek() !== '}') {
      const colon = text.indexOf(':', index)
      if (colon === -1) throw new EndOfInput()
      const key = text.slice(index, colon).trim()
      if (!/^[^{}[\],<>]+$/.test(key)) throw new GemmaSyntaxError()
      index = colon + 1
      const value = readValue()
      if (!isForbiddenKey(key)) result[key] = value
      if (peek() === ',') index++
      else if (peek() !== '}') throw new GemmaSyntaxError()
    }
    index++
    return result
  }
  try {
    const brace = text.indexOf('{', index)
    const nameSoFar = text.slice(index, brace === -1 ? text.length : brace)
    if (/[\s<>]/.test(nameSoFar)) return { status: 'text' }
    if (brace === -1) return needMoreOrText(context)
    const name = resolveToolName(nameSoFar, context)
    if (!name) return { status: 'text' }
    index = brace
    const args = readObject()
    return { status: 'calls', calls: [makeCall(name, args)], end: index }
  }
  catch (error) {
    if (error instanceof EndOfInput) return needMoreOrText(context)
    if (error instanceof GemmaSyntaxError) return { status: 'text' }
    throw error
  }
}
