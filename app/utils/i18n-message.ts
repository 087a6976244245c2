/**
 * The catalogs' message syntax, read in the browser: `{name}` and `{0}` placeholders, `{'literal'}` escapes and
 * plural forms split by `|` ("one | many" or "none | one | many"), chosen by count as vue-i18n chooses them. That is
 * all the catalogs use (tests/unit/ui-catalogs.test.ts compiles every message with vue-i18n's own compiler, which
 * refuses anything else, such as a stray `@`). Reading is parsing, never `eval`: the strict CSP stays as it is.
 */
type Part = string | { key: string }
type Message = Part[][]

const parsed = new Map<string, Message>()

function parse(source: string): Message {
  const forms: Part[][] = [[]]
  let text = ''
  const flush = () => {
    if (text) forms[forms.length - 1]!.push(text)
    text = ''
  }
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!
    if (char === '|') {
      text = text.trimEnd()
      flush()
      forms.push([])
      while (source[i + 1] === ' ') i++
    }
    else if (char === '{') {
      // a literal may itself hold a brace: `{'}'}`
      const literal = /^\{\s*'([^']*)'\s*\}/.exec(source.slice(i))
      if (literal) {
        text += literal[1]
        i += literal[0].length - 1
        continue
      }
      const end = source.indexOf('}', i)
      if (end < 0) throw new Error(`Unclosed "{" in the message "${source}".`)
      flush()
      forms[forms.length - 1]!.push({ key: source.slice(i + 1, end).trim() })
      i = end
    }
    else text += char
  }
  flush()
  return forms
}

/** vue-i18n's default rule: with two forms 1 → first, else second; with three 0, 1, many. */
function pluralForm(count: number, forms: number): number {
  const choice = Math.abs(count)
  if (forms === 2) return choice === 1 ? 0 : 1
  return Math.min(choice, 2)
}

function show(value: unknown): string {
  if (value === null || value === undefined) return ''
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** `source` with its placeholders filled from `values` (named or a list), in the form `plural` chooses. */
export function formatMessage(source: string, values: Record<string, unknown> | unknown[] = {}, plural?: number): string {
  let message = parsed.get(source)
  if (!message) {
    message = parse(source)
    parsed.set(source, message)
  }
  let named = values as Record<string, unknown>
  if (plural !== undefined && !Array.isArray(values)) named = { count: plural, n: plural, ...values }
  const form = message.length > 1 ? message[Math.min(pluralForm(plural ?? 1, message.length), message.length - 1)]! : message[0]!
  let out = ''
  for (const part of form) out += typeof part === 'string' ? part : show(named[part.key])
  return out
}
