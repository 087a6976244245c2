import type { DemoTool } from './demo-request'

/**
 * Plain-language calls of tools the demo model has no script for (the user's own tools, MCP tools): "add 2 and 40"
 * with `add_numbers` offered. A tool is picked by the words of its name (and, less, its description), and called only
 * when every required argument can be read from the text: numbers in order for number parameters, a quoted text or
 * the words after the tool's word for a text parameter, a named choice for an enum.
 */

/** The tools with their own patterns in `demo-intents.ts`: never matched by words here. */
const SCRIPTED_TOOLS = new Set(['calculate', 'get_current_time', 'get_weather', 'search_chat_history'])

// Words too common to say which tool is meant.
const STOP_WORDS = new Set(`a an and are as at be by can could do does for from get give has have how i in is it its
me my of on or please set some tell than that the then this to tool tools use using was what when which who why will
with would you your run call value values given return returns result number numbers text string`.split(/\s+/))

const WORD = /[\p{L}\p{N}]+/gu
// A number on its own: not the digits inside a word (`v2`) or a version (`1.2.3` gives no number).
const NUMBER = /(?<![\p{L}\p{N}.])-?\d+(?:\.\d+)?(?![\p{L}\p{N}]|\.\d)/gu
const QUOTED = /"([^"]{1,500})"|“([^”]{1,500})”/g
const MAX_DESCRIPTION_WORDS = 40
const MAX_ARGUMENT_CLAUSES = 4

interface ToolWords { tool: DemoTool, nameWords: Set<string>, descriptionWords: Set<string> }

/** The words of a tool's name: `server__add_numbers` → add, numbers; `addNumbers` → add, numbers. */
function nameWordsOf(name: string): Set<string> {
  const local = name.includes('__') ? name.slice(name.lastIndexOf('__') + 2) : name
  const spaced = local.replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase()
  return new Set((spaced.match(WORD) ?? []).filter(word => word.length >= 2 && !STOP_WORDS.has(word)))
}

function wordsOf(text: string, limit = Infinity): string[] {
  return (text.toLowerCase().match(WORD) ?? []).slice(0, limit).filter(word => !STOP_WORDS.has(word))
}

const ENDING = /^(?:s|es|ed|d|ing|er|ers)$/

/** "adds", "added", "adding" all name `add`, and "translate" names "Translates…". */
function sameWord(said: string, known: string): boolean {
  if (said === known) return true
  const [short, long] = said.length < known.length ? [said, known] : [known, said]
  return long.startsWith(short) && ENDING.test(long.slice(short.length))
}

function indexTools(tools: readonly DemoTool[]): ToolWords[] {
  return tools
    .filter(tool => !SCRIPTED_TOOLS.has(tool.function.name))
    .map(tool => ({
      tool,
      nameWords: nameWordsOf(tool.function.name),
      descriptionWords: new Set(wordsOf(tool.function.description ?? '', MAX_DESCRIPTION_WORDS).filter(word => word.length >= 3)),
    }))
}

/** The best tool for the words said, with where its first word was said; none below a name word or two description words. */
function bestTool(said: string[], indexed: readonly ToolWords[]): { entry: ToolWords, firstWordAt: number, byName: boolean } | undefined {
  let best: { entry: ToolWords, score: number, firstWordAt: number, byName: boolean } | undefined
  for (const entry of indexed) {
    let nameHits = 0
    let descriptionHits = 0
    let firstWordAt = -1
    said.forEach((word, position) => {
      const inName = [...entry.nameWords].some(known => sameWord(word, known))
      const inDescription = !inName && [...entry.descriptionWords].some(known => sameWord(word, known))
      if (inName) nameHits++
      if (inDescription) descriptionHits++
      if ((inName || inDescription) && firstWordAt === -1) firstWordAt = position
    })
    if (nameHits === 0 && descriptionHits < 2) continue
    const score = 2 * nameHits + descriptionHits
    if (!best || score > best.score) best = { entry, score, firstWordAt, byName: nameHits > 0 }
  }
  return best
}

interface Property { name: string, type?: unknown, enum?: unknown, format?: unknown }

const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>]+/gi

function propertiesOf(tool: DemoTool): { properties: Property[], required: string[] } {
  const parameters = tool.function.parameters ?? {}
  const raw = parameters.properties && typeof parameters.properties === 'object' ? parameters.properties as Record<string, unknown> : {}
  const properties = Object.entries(raw).map(([name, schema]) => ({ name, ...(schema && typeof schema === 'object' ? schema as object : {}) }))
  const required = Array.isArray(parameters.required) ? parameters.required.filter((key): key is string => typeof key === 'string') : []
  return { properties, required }
}

/**
 * The arguments the text gives for the tool's parameters, or undefined when a required one is missing. Free text
 * fills a text parameter only when the tool was named (`freeText`): a tool found by its description alone takes
 * numbers, quoted text, URLs and choices, never a guess.
 */
function readArguments(tool: DemoTool, text: string, afterWord: string, freeText: boolean): Record<string, unknown> | undefined {
  const { properties, required } = propertiesOf(tool)
  const urls = [...text.matchAll(URL_IN_TEXT)].map(match => match[0].replace(/[.,;:!?)]+$/, ''))
  const numbers = [...text.replace(URL_IN_TEXT, ' ').matchAll(NUMBER)].map(match => Number(match[0]))
  const quoted = [...text.matchAll(QUOTED)].map(match => match[1] ?? match[2]!)
  const lowered = text.toLowerCase()
  const values: Record<string, unknown> = {}
  let restUsed = false
  for (const property of properties) {
    const type = property.type
    if (Array.isArray(property.enum)) {
      const choice = property.enum.find(option => typeof option === 'string' && lowered.includes(option.toLowerCase()))
      if (choice !== undefined) values[property.name] = choice
    }
    else if ((type === 'number' || type === 'integer') && numbers.length > 0) {
      const value = numbers.shift()!
      if (type === 'number' || Number.isInteger(value)) values[property.name] = value
    }
    else if ((type === 'string' || type === undefined) && (property.format === 'uri' || /url|uri|link/i.test(property.name))) {
      const value = urls.shift()
      if (value) values[property.name] = value
    }
    else if (type === 'string' || type === undefined) {
      const value = quoted.shift() ?? (restUsed || !freeText ? undefined : afterWord.trim())
      if (value) values[property.name] = value
      if (!quoted.length) restUsed = true
    }
  }
  return required.every(name => name in values) ? values : undefined
}

/** What an offered tool is asked for in one stretch of text: its name and arguments in its own schema's names. */
export interface DemoOfferedCall { toolName: string, arguments: Record<string, unknown> }

/**
 * The offered tool the first clause names in plain words, with its arguments read from that clause and, while a
 * required one is still missing, the clauses after it ("add 2" + "40"); `used` is how many clauses it took.
 */
export function matchDemoOfferedTool(clauses: readonly string[], tools: DemoOfferedTools): (DemoOfferedCall & { used: number }) | undefined {
  const first = clauses[0] ?? ''
  const said = (first.toLowerCase().match(WORD) ?? []).filter(word => !STOP_WORDS.has(word))
  const found = bestTool(said, tools.indexed)
  if (!found) return undefined
  // The text after the first word that named the tool: "reverse hello world" → "hello world".
  const firstWord = said[found.firstWordAt]!
  const at = first.toLowerCase().indexOf(firstWord)
  const afterWord = at === -1 ? '' : first.slice(at + firstWord.length).replace(/^\p{L}*/u, '')
  // a few clauses at most: "add 2 and 40" is two, and a long run of clauses costs no more than a short one
  for (let used = 1; used <= Math.min(clauses.length, MAX_ARGUMENT_CLAUSES); used++) {
    const rest = clauses.slice(1, used).join(' and ')
    const values = readArguments(found.entry.tool, [first, rest].filter(Boolean).join(' and '), [afterWord, rest].filter(Boolean).join(' and '), found.byName)
    if (values) return { toolName: found.entry.tool.function.name, arguments: values, used }
  }
  return undefined
}

/** The offered tools indexed by their words, once per request. */
export interface DemoOfferedTools { readonly indexed: readonly ToolWords[] }

export function prepareDemoOfferedTools(tools: readonly DemoTool[]): DemoOfferedTools {
  return { indexed: indexTools(tools) }
}
