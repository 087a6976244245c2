import MiniSearch from 'minisearch'
import type { ToolDefinition } from '../../types/chat'

/** One tool as the search index holds it: its name and the words a query may match. */
interface IndexedTool {
  id: number
  name: string
  /** The name's words: `get_weather_forecast` and `getWeatherForecast` read as "get weather forecast". */
  nameWords: string
  description: string
  /** Parameter names (as words) and their descriptions. */
  parameters: string
}

/** A full-text index over tool definitions (MiniSearch: BM25, prefix and typo-tolerant matches). */
export interface ToolSearchIndex {
  /** Names of the best matches for `query`, best first, at most `limit`. */
  search: (query: string, limit: number) => string[]
}

// Words that appear in most tool descriptions or questions and so tell no tool apart.
const STOP_WORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'can', 'do', 'does', 'for', 'from', 'given', 'has', 'have', 'how',
  'i', 'if', 'in', 'is', 'it', 'its', 'me', 'my', 'of', 'on', 'or', 'that', 'the', 'this', 'to', 'tool', 'tools',
  'use', 'used', 'using', 'was', 'what', 'which', 'with', 'you', 'your', 'please', 'find', 'need',
])

/** "getWeather_forecast2" → "get weather forecast 2". */
export function wordsOfName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([a-zA-Z])(\d)/g, '$1 $2')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

function processTerm(term: string): string | null {
  const word = term.toLowerCase()
  return word.length === 0 || STOP_WORDS.has(word) ? null : word
}

/** Parameter names and descriptions, one level of nesting deep (what a query is likely to name). */
function parameterText(parameters: unknown): string {
  const properties = (parameters as { properties?: Record<string, unknown> } | undefined)?.properties
  if (!properties || typeof properties !== 'object') return ''
  const parts: string[] = []
  for (const [key, schema] of Object.entries(properties)) {
    parts.push(wordsOfName(key))
    const description = (schema as { description?: unknown } | null)?.description
    if (typeof description === 'string') parts.push(description)
  }
  return parts.join(' ')
}

/** Builds the index; definitions with one name are kept once (the first). */
export function createToolSearchIndex(definitions: readonly ToolDefinition[]): ToolSearchIndex {
  const index = new MiniSearch<IndexedTool>({
    fields: ['nameWords', 'description', 'parameters'],
    storeFields: ['name'],
    processTerm,
  })
  const seen = new Set<string>()
  const documents: IndexedTool[] = []
  for (const definition of definitions) {
    const { name, description = '', parameters } = definition.function
    if (seen.has(name)) continue
    seen.add(name)
    documents.push({ id: documents.length, name, nameWords: wordsOfName(name), description, parameters: parameterText(parameters) })
  }
  index.addAll(documents)
  return {
    search(query, limit) {
      const results = index.search(wordsOfName(query), {
        boost: { nameWords: 3, description: 1, parameters: 0.3 },
        prefix: term => term.length > 3,
        fuzzy: term => (term.length > 4 ? 0.2 : false),
        combineWith: 'OR',
      })
      return results.slice(0, limit).map(result => result.name as string)
    },
  }
}
