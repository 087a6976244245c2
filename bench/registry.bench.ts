// Tool registry: start-up of a fresh registry (the design's bar: under 1 ms), registering 10,000 tools (the
// bar: 50 ms; once with schemas the registry has checked before, as on a reload or hot reload, once with schemas it
// has never seen),
// 10,000 toggles (with debounced persistence to an in-memory Storage), getEnabledDefinitions() over 1,000 tools.
// Tool definitions are the real BFCL corpus, cycled with unique names.
// Run: `node --import tsx bench/registry.bench.ts` (or `npm run bench`).
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { ToolDefinition } from '../shared/types/chat'
import { createToolRegistry } from '../app/utils/chat/tool-registry'
import { TOOL_STATES_STORAGE_KEY } from '../app/utils/chat/registry/tool-state-storage'
import { measure, printTable, writeResult } from './lib/index'

const root = resolve(fileURLToPath(import.meta.url), '../..')
const START_UP_BAR_MS = 1
const REGISTER_BAR_MS = 50

class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>()
  get length() { return this.items.size }
  clear() { this.items.clear() }
  getItem(key: string) { return this.items.get(key) ?? null }
  key(index: number) { return [...this.items.keys()][index] ?? null }
  removeItem(key: string) { this.items.delete(key) }
  setItem(key: string, value: string) { this.items.set(key, value) }
}

function definitions(count: number): ToolDefinition[] {
  const corpus = JSON.parse(readFileSync(resolve(root, 'tests/fixtures/corpora/tool-schemas/bfcl_tools.openai.json'), 'utf8')) as ToolDefinition[]
  return Array.from({ length: count }, (_, index) => {
    const source = corpus[index % corpus.length]!
    return { ...source, function: { ...source.function, name: `${source.function.name.slice(0, 50)}_${index}` } }
  })
}

const noop = () => 'ok'

export async function runRegistryBench() {
  const tenThousand = definitions(10_000)
  const oneThousand = tenThousand.slice(0, 1_000)
  const savedStates = new MemoryStorage()
  savedStates.setItem(TOOL_STATES_STORAGE_KEY, JSON.stringify({ version: 1, states: Object.fromEntries(oneThousand.map((d, i) => [d.function.name, i % 2 === 0])) }))

  const startUp = await measure(() => createToolRegistry().dispose(), { runs: 51, warmup: 5 })
  const startUpWithStates = await measure(() => createToolRegistry({ storage: savedStates }).dispose(), { runs: 51, warmup: 5 })
  const register = await measure(() => {
    const registry = createToolRegistry()
    for (const definition of tenThousand) registry.registerTool(definition, noop)
  }, { runs: 7, warmup: 2 })
  // fresh parameters objects for every run, made before timing: nothing can come from the registry's cache
  const unseen = Array.from({ length: 9 }, () => structuredClone(tenThousand))
  const registerUnseen = await measure(() => {
    const registry = createToolRegistry()
    for (const definition of unseen.pop()!) registry.registerTool(definition, noop)
  }, { runs: 7, warmup: 2 })

  const toggled = createToolRegistry({ storage: new MemoryStorage() })
  for (const definition of tenThousand) toggled.registerTool(definition, noop)
  let round = 0
  const toggles = await measure(() => {
    round++
    for (const [index, definition] of tenThousand.entries()) toggled.setEnabled(definition.function.name, (index + round) % 2 === 0)
    toggled.flush()
  }, { runs: 7, warmup: 2 })
  toggled.dispose()

  const listed = createToolRegistry()
  oneThousand.forEach((definition, index) => listed.registerTool(definition, noop, { enabled: index % 4 !== 0 }))
  const enabledDefinitions = await measure(() => listed.getEnabledDefinitions(), { runs: 51, warmup: 5 })
  const toolSet = await measure(() => listed.getToolSet({ threadId: 'bench' }), { runs: 51, warmup: 5 })

  const rows = [
    { case: 'start-up (fresh registry, no storage)', median_ms: startUp.medianMs, min_ms: startUp.minMs, per_item_us: '', bar: `< ${START_UP_BAR_MS} ms: ${startUp.medianMs < START_UP_BAR_MS ? 'pass' : 'FAIL'}` },
    { case: 'start-up (reads 1,000 saved states)', median_ms: startUpWithStates.medianMs, min_ms: startUpWithStates.minMs, per_item_us: '', bar: `< ${START_UP_BAR_MS} ms: ${startUpWithStates.medianMs < START_UP_BAR_MS ? 'pass' : 'FAIL'}` },
    { case: 'register 10,000 tools', median_ms: register.medianMs, min_ms: register.minMs, per_item_us: (register.medianMs * 1000 / 10_000).toFixed(2), bar: `≤ ${REGISTER_BAR_MS} ms: ${register.medianMs <= REGISTER_BAR_MS ? 'pass' : 'FAIL'}` },
    { case: 'register 10,000 tools, schemas never seen', median_ms: registerUnseen.medianMs, min_ms: registerUnseen.minMs, per_item_us: (registerUnseen.medianMs * 1000 / 10_000).toFixed(2), bar: '' },
    { case: '10,000 toggles + 1 flush', median_ms: toggles.medianMs, min_ms: toggles.minMs, per_item_us: (toggles.medianMs * 1000 / 10_000).toFixed(2), bar: '' },
    { case: 'getEnabledDefinitions() over 1,000 tools (750 on)', median_ms: enabledDefinitions.medianMs, min_ms: enabledDefinitions.minMs, per_item_us: '', bar: '' },
    { case: 'getToolSet() over 1,000 tools (750 on)', median_ms: toolSet.medianMs, min_ms: toolSet.minMs, per_item_us: '', bar: '' },
  ]
  printTable('Tool registry (medians)', rows)
  await writeResult('registry', rows)
  return rows
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runRegistryBench()
}
