import { parseJson } from '#shared/security/parse-json'
import { DEMO_MAX_TOOL_CALLS } from './demo-limits'

/**
 * "call slow_tool", "use failing_tool with {"a":1}": the user names an offered tool, optionally followed by
 * JSON arguments. End-to-end tests register test-only tools and drive the demo model this way.
 */
export interface DemoNamedCall {
  toolName: string
  /** The JSON object written after the name, or undefined when there is none (or it does not parse). */
  arguments?: Record<string, unknown>
}

const VERB = /\b(?:call|use|run|invoke|trigger|try|execute)\s+/gi
const THE = /the\s+/iy
const NAME = /[\w-]+/y
// OpenAI's tool names (and the app's registry) are letters, digits, `_` and `-`: a name is one such word.
// A name of any other form (only a hand-made request can offer one) is never matched.
const NAME_FORM = /^[\w-]+$/

/** The balanced `{...}` starting at `start` (string-aware), or undefined. */
export function readJsonObjectAt(text: string, start: number): string | undefined {
  if (text[start] !== '{') return undefined
  let depth = 0
  let inString = false
  for (let index = start; index < text.length; index++) {
    const char = text[index]
    if (inString) {
      if (char === '\\') index++
      else if (char === '"') inString = false
      continue
    }
    if (char === '"') inString = true
    else if (char === '{') depth++
    else if (char === '}' && --depth === 0) return text.slice(start, index + 1)
  }
  return undefined
}

/** Parses a JSON object the user typed; anything else (arrays, broken JSON) gives undefined. `__proto__`, `constructor` and `prototype` are dropped. */
export function parseUserJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = parseJson(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : undefined
  }
  catch {
    return undefined
  }
}

/** Where the name after a verb may start: after "the " first (as `(?:the\s+)?` tries), then right after the verb. */
function nameStarts(text: string, afterVerb: number): number[] {
  THE.lastIndex = afterVerb
  return THE.test(text) ? [THE.lastIndex, afterVerb] : [afterVerb]
}

/** The `{` between `from` and `until`, or -1. Only that stretch is searched: it belongs to one call. */
function braceBetween(text: string, from: number, until: number): number {
  const at = text.slice(from, until).indexOf('{')
  return at === -1 ? -1 : from + at
}

/**
 * Offered tools the message names after a verb ("call x", "use the `x` tool"), in the order written, at most
 * `limit` of them. A bare mention of a name is not a request: "calculate 2+2" is arithmetic, not a call with `{}`.
 * One pass over the text: each word after a verb is looked up among the offered names, so a thousand offered
 * tools cost no more than one.
 */
export function findDemoNamedCalls(text: string, offeredNames: readonly string[], limit = DEMO_MAX_TOOL_CALLS): DemoNamedCall[] {
  // Matching ignores case, like the `i` flag did; names that differ only in case are each called.
  const namesByWord = new Map<string, { name: string, order: number }[]>()
  offeredNames.forEach((name, order) => {
    if (!NAME_FORM.test(name)) return
    const word = name.toLowerCase()
    const names = namesByWord.get(word)
    if (names) names.push({ name, order })
    else namesByWord.set(word, [{ name, order }])
  })
  // Mentions in the order written; at one verb, in the order offered. One past `limit`, for the last one's `until`.
  const found: { toolName: string, at: number, end: number }[] = []
  // Per name, where its last mention ended: a mention never starts inside the previous one, as with one pattern
  // per name (with a tool named `call`, "call call call" is one call).
  const endOfLastMention = new Map<string, number>()
  for (const verb of text.matchAll(VERB)) {
    const atVerb: { toolName: string, order: number, at: number, end: number }[] = []
    for (const candidate of nameStarts(text, verb.index + verb[0].length)) {
      const start = text[candidate] === '`' ? candidate + 1 : candidate
      NAME.lastIndex = start
      const word = NAME.exec(text)?.[0] ?? ''
      for (const { name, order } of namesByWord.get(word.toLowerCase()) ?? []) {
        if (verb.index < (endOfLastMention.get(name) ?? 0)) continue
        endOfLastMention.set(name, start + word.length)
        atVerb.push({ toolName: name, order, at: verb.index, end: start + word.length })
      }
    }
    found.push(...atVerb.sort((a, b) => a.order - b.order))
    if (found.length > limit) break
  }
  return found.slice(0, limit).map((call, position) => {
    const braceAt = braceBetween(text, call.end, found[position + 1]?.at ?? text.length)
    const json = braceAt === -1 ? undefined : readJsonObjectAt(text, braceAt)
    return { toolName: call.toolName, arguments: json === undefined ? undefined : parseUserJsonObject(json) }
  })
}
