// Tool search on real tool definitions (tests/fixtures/corpora/tool-schemas, BFCL v4): request bytes per step
// with N tools enabled, with and without tool search, and how often the needed tool is in find_tools' top 5.
//   node --import tsx bench/tool-search/tool-search-figures.ts [--enabled 100,300] [--seed 1]
import { parseArgs } from 'node:util'
import type { ToolDefinition } from '../../shared/types/chat'
import { toolSetFromArray } from '../../shared/tools/tool-set'
import { withToolSearch } from '../../shared/tools/tool-search/with-tool-search'
import { FIND_TOOLS_LIMIT } from '../../shared/tools/tool-search/find-tools-tool'
import { createToolSearchIndex } from '../../shared/tools/tool-search/tool-search-index'
import { descriptionQuery, loadCorpusTools, loadCorpusQuestions, seededShuffle } from './corpus-tools'

const { values } = parseArgs({ options: { enabled: { type: 'string', default: '100,300' }, seed: { type: 'string', default: '1' } } })
const sizes = values.enabled!.split(',').map(Number)
const seed = Number(values.seed)
const tools = loadCorpusTools()
const questions = loadCorpusQuestions()
const ALWAYS_ON = 5

const bytes = (definitions: readonly ToolDefinition[]) => Buffer.byteLength(JSON.stringify(definitions))

console.log(`corpus: ${tools.length} distinct tool names; ${questions.length} questions that call one tool`)
for (const size of sizes) {
  const enabled = seededShuffle(tools, seed + size).slice(0, size)
  const set = toolSetFromArray(enabled.map(definition => ({ definition, handler: () => '' })))
  const searched = withToolSearch(set, { alwaysOn: enabled.slice(0, ALWAYS_ON).map(tool => tool.function.name) })
  const before = bytes(set.definitions)
  const first = bytes(searched.definitions)
  // After one search: the always-on tools, find_tools and the (at most) 5 it loaded.
  void searched.get('find_tools')!.handler({ query: descriptionQuery(enabled[size - 1]!) }, {} as never)
  const after = bytes(searched.definitions)
  console.log(`${size} enabled: tools bytes per request ${before} without search; ${first} first step, ${after} after one search (${(before / after).toFixed(1)}x fewer; ~${Math.round(before / 4)} vs ~${Math.round(after / 4)} tokens at 4 bytes a token)`)

  const builtAt = performance.now()
  const index = createToolSearchIndex(enabled)
  const buildMs = performance.now() - builtAt
  const searchedAt = performance.now()
  for (const tool of enabled.slice(0, 100)) index.search(descriptionQuery(tool), FIND_TOOLS_LIMIT)
  console.log(`${size} enabled: index built in ${buildMs.toFixed(1)} ms, ${((performance.now() - searchedAt) / 100).toFixed(2)} ms a search (loaded machine: rough)`)
  let hits = 0
  for (const tool of enabled) {
    if (index.search(descriptionQuery(tool), FIND_TOOLS_LIMIT).includes(tool.function.name)) hits++
  }
  const names = new Set(enabled.map(tool => tool.function.name))
  const asked = questions.filter(question => names.has(question.tool))
  let questionHits = 0
  for (const question of asked) {
    if (index.search(question.text, FIND_TOOLS_LIMIT).includes(question.tool)) questionHits++
  }
  console.log(`${size} enabled: description queries ${hits}/${enabled.length} in top ${FIND_TOOLS_LIMIT} (${(100 * hits / enabled.length).toFixed(1)}%); user questions ${questionHits}/${asked.length} (${(100 * questionHits / Math.max(asked.length, 1)).toFixed(1)}%)`)
}

const index = createToolSearchIndex(tools)
let hits = 0
for (const tool of tools) {
  if (index.search(descriptionQuery(tool), FIND_TOOLS_LIMIT).includes(tool.function.name)) hits++
}
console.log(`all ${tools.length}: description queries ${hits}/${tools.length} in top ${FIND_TOOLS_LIMIT} (${(100 * hits / tools.length).toFixed(1)}%)`)
