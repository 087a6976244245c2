import { findDemoCity } from './city-timezones'
import { detectDemoSearch } from './demo-search-intent'
import { matchDemoOfferedTool } from './demo-offered-tools'
import type { DemoOfferedTools } from './demo-offered-tools'

/**
 * What the demo model "understands" in a user message: which well-known tool a sentence asks for and with
 * which arguments. Pure pattern matching, no tools involved; the planner decides whether the tool is offered.
 */
export interface DemoIntent {
  /** The tool this intent needs, e.g. `calculate`. */
  toolName: string
  /** Arguments keyed by meaning (`expression`, `timezone`, `city`, `query`); mapped onto the tool's schema later. */
  arguments: Record<string, string>
  /** Arguments already in the tool's own names and types (a tool matched by its words): passed as they are. */
  toolArguments?: Record<string, unknown>
  /** Set when no tool can answer this part: what to tell the user instead of calling `toolName`. */
  cannot?: string
}

// Every pattern here runs on text the user typed, so none may backtrack more than linearly. Two habits keep it so:
// a run of characters is entered only at its start (`(?<!\s)\s+`, `(?<!\d)\d+`), never once per character of
// it, and two quantifiers that could share the same characters never follow each other (`\s*\s+`).
// A separator is punctuation, or a joining word, with the whitespace around it. Same splits as
// `\s*(?:[?;!]+|\.\s+|,?\s+(?:and|...)\s+|,\s+)\s*`, which went cubic on a long run of spaces.
const CLAUSE_SEPARATOR = /(?:(?:(?<!\s)\s+)?(?:[?;!]+|\.\s+|,\s+(?:and then|and also|and|also|then|plus)\s+|,\s+)|(?<!\s)\s+(?:and then|and also|and|also|then|plus)\s+)\s*/i
const TIME_PATTERN = /\bwhat\s+time\b|\bwhat(?:'s|\s+is)\s+the\s+time\b|\bcurrent\s+time\b|\blocal\s+time\b|\btime\s+(?:is\s+it\s+)?(?:now\s+)?in\b|\btime\s+now\b/i
const WEATHER_PATTERN = /\bweather\b|\bforecast\b/i
const WEATHER_CITY = /\b(?:in|for|at)\s+([\p{L}][\p{L} .'-]*)/u
// `(?!\s)`: the spaces before the expression all go to `\s+`, none to `(.+)`, which could otherwise share them.
const CALC_VERB = /^(?:please\s+)?(?:can you\s+)?(?:calculate|compute|evaluate|solve|convert)\s+(?!\s)(.+)$/i
const WHAT_IS = /^(?:please\s+)?(?:what(?:'s|\s+is)|how\s+much\s+is)\s+(?!\s)(.+)$/i
const MATHY = /\d\s*(?:[-+*/×÷^%]|\bx\b|\bto\b|\bin\b|\bmod\b)|\b(?:sqrt|sin|cos|tan|log|pi|exp)\b\s*\(?|\d\s*[a-z]+\s+(?:to|in)\s+[a-z]+/i
const BARE_EXPRESSION = /^[\d\s.,+\-*/×÷^%()]+$/
// A clause that is only math with functions ("sqrt(-4)" after "what is 1/0 and"): each alternative starts with a
// different character class or word, so the match stays linear.
const FUNCTION_EXPRESSION = /^(?:[\d\s.,+\-*/×÷^%()]|sqrt|sin|cos|tan|log|ln|exp|abs|pi)+$/i
// An expression inside a sentence ("think about 5*5 for me"). No `-`, so dates like 2024-01-01 are not sums.
const EMBEDDED_EXPRESSION = /(?<!\d)\d+(?:\.\d+)?(?:\s*[+*/×÷^]\s*\d+(?:\.\d+)?)+/

/** Split a message into the sentences/clauses that could each ask for one tool. */
export function splitDemoClauses(text: string): string[] {
  return text.split(CLAUSE_SEPARATOR).map(clause => clause.trim()).filter(Boolean)
}

/** Makes a typed expression readable by a math library: `12 x 7` → `12*7`, `×` → `*`, no trailing `?`. */
export function normaliseDemoExpression(raw: string): string {
  return raw
    .replace(/×/g, '*')
    .replace(/÷/g, '/')
    .replace(/(\d)\s*x\s*(?=\d)/gi, '$1*')
    .replace(/^(?:the\s+(?:result|value)\s+of\s+|the\s+)/i, '')
    .replace(/(?<![\s?!=.])[\s?!=.]+$/, '')
    .trim()
}

function arithmeticIntent(clause: string): DemoIntent | undefined {
  const verb = CALC_VERB.exec(clause)
  const whatIs = verb ? undefined : WHAT_IS.exec(clause)
  let candidate: string | undefined
  if (verb) candidate = verb[1]
  else if (whatIs && MATHY.test(whatIs[1]!)) candidate = whatIs[1]
  else if (BARE_EXPRESSION.test(clause) && /\d\s*[-+*/×÷^%]\s*[\d(]/.test(clause)) candidate = clause
  else if (FUNCTION_EXPRESSION.test(clause) && /[a-z]\s*\(\s*-?[\d.]/i.test(clause)) candidate = clause
  else candidate = EMBEDDED_EXPRESSION.exec(clause)?.[0]
  if (!candidate) return undefined
  const expression = normaliseDemoExpression(candidate)
  return expression ? { toolName: 'calculate', arguments: { expression } } : undefined
}

// Places no Earth time zone covers: the time tool's answer (UTC) would be a wrong answer there.
const OTHER_WORLD = /\b(?:on|in|at)\s+(?:the\s+)?(mars|moon|venus|jupiter|saturn|mercury|neptune|uranus|pluto|sun)\b/i

function timeIntent(clause: string): DemoIntent | undefined {
  if (!TIME_PATTERN.test(clause)) return undefined
  const world = OTHER_WORLD.exec(clause)?.[1]
  if (world) {
    const name = titleCase(world.toLowerCase())
    const place = /^(?:moon|sun)$/i.test(world) ? `the ${name}` : name
    return { toolName: 'get_current_time', arguments: {}, cannot: `I can't tell the time on ${place}: the \`get_current_time\` tool only knows Earth's time zones, so its answer would not be ${place} time.` }
  }
  const city = findDemoCity(clause)
  return { toolName: 'get_current_time', arguments: city ? { timezone: city.timezone } : {} }
}

function weatherIntent(clause: string): DemoIntent | undefined {
  if (!WEATHER_PATTERN.test(clause)) return undefined
  const named = WEATHER_CITY.exec(clause)?.[1]
    ?.replace(/(?<!\s)\s+(?:today|tomorrow|now|right now|this week|like|please)\b.*$/i, '')
    .replace(/(?<![\s.'-])[\s.'-]+$/, '')
    .trim()
  const city = named || findDemoCity(clause)?.city
  if (!city) return undefined
  return { toolName: 'get_weather', arguments: { city: titleCase(city) } }
}

function titleCase(text: string): string {
  return text.replace(/(^|[\s-])(\p{Ll})/gu, (_, before: string, letter: string) => before + letter.toUpperCase())
}

/**
 * Every tool-worthy request in `text`, in the order the user wrote them.
 * @example detectDemoIntents('what is 2+2 and what time is it in Paris')
 *   // → [{ toolName: 'calculate', arguments: { expression: '2+2' } },
 *   //    { toolName: 'get_current_time', arguments: { timezone: 'Europe/Paris' } }]
 */
export function detectDemoIntents(text: string, offered?: DemoOfferedTools): DemoIntent[] {
  // The search intent is taken from the whole message so "cats and dogs" stays one query.
  const search = detectDemoSearch(text)
  const clauses = splitDemoClauses(search ? search.rest : text)
  const scripted = clauses.map(clause => timeIntent(clause) ?? weatherIntent(clause) ?? arithmeticIntent(clause))
  const intents: DemoIntent[] = []
  for (let index = 0; index < clauses.length; index++) {
    const intent = scripted[index]
    if (intent) {
      intents.push(intent)
      continue
    }
    if (!offered) continue
    // "add 2 and 40" was split at "and": the clauses after a tool's words that ask for nothing else are its arguments.
    let end = index + 1
    while (end < clauses.length && !scripted[end]) end++
    const call = matchDemoOfferedTool(clauses.slice(index, end), offered)
    if (!call) continue
    intents.push({ toolName: call.toolName, arguments: {}, toolArguments: call.arguments })
    index += call.used - 1
  }
  if (search) intents.push(search.intent)
  return intents
}
