import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ToolDefinition } from '#shared/types/chat'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import { InvalidToolDefinitionError } from '../../shared/errors/invalid-tool-definition-error'
import type { ToolRegistry } from '~/utils/chat/registry/tool-registry-types'

const corpus = JSON.parse(readFileSync(resolve(process.cwd(), 'tests/fixtures/corpora/tool-schemas/bfcl_tools.openai.json'), 'utf8')) as ToolDefinition[]
const noop = () => 'ok'

/**
 * The corpus holds 2,404 definitions under 1,277 names (the same function documented differently in
 * different questions). One registry rejects a second name, so definition k of a name goes into registry k:
 * every definition is registered once, without `override` hiding one behind another.
 */
function registerInShards(definitions: ToolDefinition[]) {
  const shards: ToolRegistry[] = []
  const occurrences = new Map<string, number>()
  const rejected: Array<{ name: string, reason: string }> = []
  const placed: Array<{ input: ToolDefinition, shard: number }> = []
  for (const input of definitions) {
    const name = input.function.name
    const shard = occurrences.get(name) ?? 0
    occurrences.set(name, shard + 1)
    shards[shard] ??= createToolRegistry()
    try {
      shards[shard]!.registerTool(input, noop)
      placed.push({ input, shard })
    }
    catch (error) {
      if (!InvalidToolDefinitionError.isInstance(error)) throw error
      rejected.push({ name, reason: `${error.path} ${error.problem}` })
    }
  }
  return { shards, rejected, placed }
}

/** Rejections counted by reason, with property names replaced by `*` so that equal problems group. */
function groupReasons(rejected: Array<{ reason: string }>): Record<string, number> {
  const groups: Record<string, number> = {}
  for (const { reason } of rejected) {
    const key = reason.replace(/properties\.[^.\s]+/g, 'properties.*')
    groups[key] = (groups[key] ?? 0) + 1
  }
  return groups
}

describe('BFCL tool-schemas corpus', () => {
  const { shards, rejected, placed } = registerInShards(corpus)

  it('holds 2,404 definitions under 1,277 names', () => {
    expect(corpus).toHaveLength(2404)
    expect(new Set(corpus.map(definition => definition.function.name)).size).toBe(1277)
  })

  it('registers every definition and rejects none', () => {
    expect(groupReasons(rejected)).toEqual({})
    expect(placed).toHaveLength(2404)
    expect(shards.reduce((sum, shard) => sum + shard.listTools().value.length, 0)).toBe(2404)
  })

  it('serialises every registered definition exactly as it came in', () => {
    const expectedPerShard = shards.map((_, index) => placed.filter(entry => entry.shard === index).map(entry => entry.input))
    let unchanged = 0
    shards.forEach((shard, index) => {
      const output = shard.getEnabledDefinitions()
      expect(output).toEqual(expectedPerShard[index])
      unchanged += output.filter((definition, position) => JSON.stringify(definition) === JSON.stringify(expectedPerShard[index]![position])).length
    })
    // byte-for-byte, key order included: what the provider receives is what the plugin author wrote
    expect(unchanged).toBe(2404)
  })

  it('keeps one tool per name, at its first position, when the corpus is registered with override', () => {
    const registry = createToolRegistry()
    for (const definition of corpus) registry.registerTool(definition, noop, { override: true })
    const names = registry.listTools().value.map(entry => entry.name)
    expect(names).toHaveLength(1277)
    expect(names).toEqual([...new Set(corpus.map(definition => definition.function.name))])
    const lastByName = new Map(corpus.map(definition => [definition.function.name, definition]))
    expect(registry.getEnabledDefinitions()).toEqual(names.map(name => lastByName.get(name)))
  })

  it('rejects definitions written with BFCL\'s own type names, naming the property', () => {
    // BFCL writes `dict`, `float`, `tuple`; the corpus converted them. Undo it on the first property of each tool.
    const withProperties = corpus.filter(definition => Object.keys(definition.function.parameters.properties ?? {}).length > 0)
    const mutated = withProperties.map((definition) => {
      const copy = structuredClone(definition)
      const properties = copy.function.parameters.properties as Record<string, Record<string, unknown>>
      properties[Object.keys(properties)[0]!]!.type = 'dict'
      return copy
    })
    const { rejected, placed } = registerInShards(mutated)
    expect(placed).toHaveLength(0)
    expect(groupReasons(rejected)).toEqual({
      'parameters.properties.*.type must be one of string, number, integer, boolean, object, array, null (got "dict")': withProperties.length,
    })
  })
})
