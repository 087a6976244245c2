/**
 * "call slow_tool", "use failing_tool with {"a":1}": the user names an offered tool, optionally followed by
 * JSON arguments. End-to-end tests register test-only tools and drive the demo model this way.
 */
export interface DemoNamedCall {
  toolName: string
  /** The JSON object written after the name, or undefined when there is none (or it does not parse). */
  arguments?: Record<string, unknown>
}

const VERBS = '(?:call|use|run|invoke|trigger|try|execute)'

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

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

/** Parses a JSON object the user typed; anything else (arrays, broken JSON) gives undefined. `__proto__` is dropped. */
export function parseUserJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text, (key, item) => (key === '__proto__' ? undefined : item))
    return value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : undefined
  }
  catch {
    return undefined
  }
}

/**
 * Offered tools the message names after a verb ("call x", "use the `x` tool"), in the order written.
 * A bare mention of a name is not a request: "calculate 2+2" is arithmetic, not a call with `{}`.
 */
export function findDemoNamedCalls(text: string, offeredNames: readonly string[]): DemoNamedCall[] {
  const found: { toolName: string, at: number, end: number }[] = []
  for (const name of offeredNames) {
    const pattern = new RegExp(`\\b${VERBS}\\s+(?:the\\s+)?\`?${escapeRegExp(name)}\`?(?![\\w-])`, 'gi')
    for (const match of text.matchAll(pattern)) found.push({ toolName: name, at: match.index, end: match.index + match[0].length })
  }
  found.sort((a, b) => a.at - b.at)
  return found.map((call, position) => {
    const until = found[position + 1]?.at ?? text.length
    const braceAt = text.indexOf('{', call.end)
    const json = braceAt !== -1 && braceAt < until ? readJsonObjectAt(text, braceAt) : undefined
    return { toolName: call.toolName, arguments: json === undefined ? undefined : parseUserJsonObject(json) }
  })
}
