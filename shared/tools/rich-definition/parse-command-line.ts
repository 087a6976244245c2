import type { InputField } from '../../types/rich-tool-definition'

/** A composer line split into its command and the text after it. */
export interface CommandLine {
  /** Lower case, with its slash: '/calc'. */
  command: string
  /** Everything after the command, trimmed. */
  rest: string
}

/** What the text after a command gives, checked against the tool's inputs. */
export interface ParsedCommandArguments {
  /** Typed values by input name. */
  args: Record<string, unknown>
  /** Required inputs with no value yet (the form asks for them). */
  missing: string[]
  /** Values that do not fit their input, by name ('must be a number'). */
  errors: Record<string, string>
}

/** Longest command line accepted, in characters: a slash command is typed, not pasted. */
export const MAX_COMMAND_LINE_LENGTH = 10_000

const COMMAND_LINE = /^\/([a-z][a-z0-9_-]{0,31})(?:\s+([\s\S]*))?$/i
/** `key=value`, value bare or quoted; the key must name an input to count. */
const PAIR = /(^|\s)([A-Za-z_][\w-]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g

/** '/calc 12*7' → { command: '/calc', rest: '12*7' }; anything that is not a slash command → undefined. */
export function splitCommandLine(line: string): CommandLine | undefined {
  const match = COMMAND_LINE.exec(line.trim())
  if (!match) return undefined
  return { command: `/${match[1]!.toLowerCase()}`, rest: (match[2] ?? '').trim() }
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) return value.slice(1, -1).replace(/\\(.)/g, '$1')
  if (value.length >= 2 && value.startsWith('\'') && value.endsWith('\'')) return value.slice(1, -1)
  return value
}

/** Turns the text of one input into its type: a number, a boolean or the text itself. */
export function coerceInput(field: InputField, text: string): { ok: true, value: unknown } | { ok: false, error: string } {
  if (field.type === 'number') {
    const value = Number(text.trim())
    if (text.trim() === '' || !Number.isFinite(value)) return { ok: false, error: `${field.name} must be a number (got "${text}")` }
    return { ok: true, value }
  }
  if (field.type === 'boolean') {
    const word = text.trim().toLowerCase()
    if (['true', 'yes', 'on', '1'].includes(word)) return { ok: true, value: true }
    if (['false', 'no', 'off', '0'].includes(word)) return { ok: true, value: false }
    return { ok: false, error: `${field.name} must be true or false (got "${text}")` }
  }
  if (field.enum && !field.enum.includes(text)) return { ok: false, error: `${field.name} must be one of ${field.enum.join(', ')} (got "${text}")` }
  return { ok: true, value: text }
}

/**
 * Reads the arguments of a slash command against the tool's inputs: `key=value` pairs whose key names an input
 * (quotes allowed: `city="New York"`), then the rest of the line goes to the first required string input (or the
 * first string input when none is required). Inputs left out take their default; required ones still without a
 * value are listed in `missing`.
 */
export function parseCommandArguments(rest: string, inputSchema: Record<string, InputField>): ParsedCommandArguments {
  const args: Record<string, unknown> = {}
  const errors: Record<string, string> = {}
  const text = rest.slice(0, MAX_COMMAND_LINE_LENGTH)
  const remaining = text.replace(PAIR, (whole, space: string, key: string, value: string) => {
    const field = inputSchema[key]
    if (!field || !Object.hasOwn(inputSchema, key)) return whole
    const coerced = coerceInput(field, unquote(value))
    if (coerced.ok) args[key] = coerced.value
    else errors[key] = coerced.error
    return space
  }).replace(/\s+/g, ' ').trim()

  const fields = Object.values(inputSchema)
  const textual = (field: InputField) => field.type !== 'number' && field.type !== 'boolean'
  const target = fields.find(field => field.required && textual(field) && !(field.name in args))
    ?? fields.find(field => textual(field) && !(field.name in args))
  if (remaining) {
    // the rest of the line may also be a lone number or boolean input's value: '/roll 20'
    const receiver = target ?? fields.find(field => field.required && !(field.name in args)) ?? fields.find(field => !(field.name in args))
    if (receiver) {
      const coerced = coerceInput(receiver, remaining)
      if (coerced.ok) args[receiver.name] = coerced.value
      else errors[receiver.name] = coerced.error
    }
    else errors._ = `"${remaining}" is not a key=value pair this command takes`
  }
  for (const field of fields) {
    if (!(field.name in args) && !(field.name in errors) && field.default !== undefined) args[field.name] = field.default
  }
  const missing = fields.filter(field => field.required && !(field.name in args)).map(field => field.name)
  return { args, missing, errors }
}
