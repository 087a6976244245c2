// Tool catalog (design 003): deriving 1,000 rich definitions from real OpenAI definitions (the BFCL corpus, as the
// catalog page and slash commands do on each registry change), validate() over them, 1,000 command lookups, and
// parsing 1,000 slash command lines. Run: `node --import tsx bench/catalog.bench.ts` (or `npm run bench catalog`).
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { ToolDefinition } from '../shared/types/chat'
import { createToolCatalog, parseCommandArguments, splitCommandLine, toRichToolDefinition, validateRichDefinitions } from '../shared/tools/rich-definition'
import { measure, printTable, writeResult } from './lib/index'

const root = resolve(fileURLToPath(import.meta.url), '../..')
const COUNT = 1_000

function definitions(): ToolDefinition[] {
  const corpus = JSON.parse(readFileSync(resolve(root, 'tests/fixtures/corpora/tool-schemas/bfcl_tools.openai.json'), 'utf8')) as ToolDefinition[]
  return Array.from({ length: COUNT }, (_, index) => {
    const source = corpus[index % corpus.length]!
    return { ...source, function: { ...source.function, name: `${source.function.name.slice(0, 50)}_${index}` } }
  })
}

export async function runCatalogBench() {
  const tools = definitions()
  const derive = () => tools.map((definition, index) => toRichToolDefinition(definition, { label: definition.function.name, category: `c${index % 12}`, catalog: { commandName: `cmd${index}`, costingModel: { rate: 0.001, unit: 'request' } } }))
  const rich = derive()
  const catalog = createToolCatalog(rich)
  const problems = validateRichDefinitions(rich).problems.length
  const build = await measure(derive, { runs: 15, warmup: 3 })
  const validate = await measure(() => catalog.validate(), { runs: 15, warmup: 3 })
  const lookups = await measure(() => {
    for (let index = 0; index < COUNT; index++) catalog.findByCommand(`/cmd${index}`)
  }, { runs: 7, warmup: 2 })
  const lines = rich.map(tool => `${tool.commandName} ${Object.keys(tool.inputSchema).slice(1).map(name => `${name}=1`).join(' ')} some free text`)
  const parse = await measure(() => {
    for (const [index, line] of lines.entries()) parseCommandArguments(splitCommandLine(line)!.rest, rich[index]!.inputSchema)
  }, { runs: 15, warmup: 3 })

  const rows = [
    { case: `derive ${COUNT} rich definitions`, median_ms: build.medianMs, min_ms: build.minMs, per_item_us: (build.medianMs * 1000 / COUNT).toFixed(2), note: '' },
    { case: `validate() over ${COUNT}`, median_ms: validate.medianMs, min_ms: validate.minMs, per_item_us: (validate.medianMs * 1000 / COUNT).toFixed(2), note: `${problems} problems` },
    { case: `${COUNT} findByCommand() over ${COUNT}`, median_ms: lookups.medianMs, min_ms: lookups.minMs, per_item_us: (lookups.medianMs * 1000 / COUNT).toFixed(2), note: 'linear scan' },
    { case: `parse ${COUNT} command lines`, median_ms: parse.medianMs, min_ms: parse.minMs, per_item_us: (parse.medianMs * 1000 / COUNT).toFixed(2), note: '' },
  ]
  printTable('Tool catalog (medians)', rows)
  await writeResult('catalog', rows)
  return rows
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runCatalogBench()
}
