import { clipText } from './clip-text'

/**
 * One readable line for any value a plugin threw or a model sent: an Error's message, a string as it is,
 * anything else as JSON or `String()`. Never throws, even for a revoked Proxy, a throwing `message` getter or
 * `toString`, a Symbol or null, and the line is cut to `maxChars`.
 */
export function describeValue(value: unknown, maxChars: number): string {
  for (const attempt of [errorText, plainText, jsonText, stringText]) {
    try {
      const text = attempt(value)
      if (typeof text === 'string' && text !== '') return clipText(text, maxChars)
    }
    catch {
      // A hostile value may throw from any getter or conversion: try the next, more basic reading.
    }
  }
  return `a value that cannot be described (${typeof value})`
}

function errorText(value: unknown): string | undefined {
  if (!(value instanceof Error)) return undefined
  const message: unknown = value.message
  if (typeof message === 'string' && message !== '') return message
  const name: unknown = value.name
  return typeof name === 'string' ? name : undefined
}

function plainText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? 'unknown error' : value
  if (typeof value === 'symbol') return value.toString()
  return undefined
}

function jsonText(value: unknown): string | undefined {
  // An Error whose message could not be read would print as '{}': let String() try its name instead.
  if (value instanceof Error) return undefined
  return JSON.stringify(value)
}

function stringText(value: unknown): string {
  return String(value)
}
