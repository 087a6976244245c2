// Property tests of argument parsing and validation (a model's arguments are untrusted input): arbitrary text and
// arbitrary JSON, checked against real tool schemas from the BFCL corpus, never throw, always come back valid or
// invalid, and an invalid answer's message stays short whatever the input.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { fuzzOptions } from '~~/tests/unit/helpers/fuzz-options'
import { parseToolArguments, validateToolArguments } from '#shared/tools/validate-tool-arguments'
import type { ToolDefinition } from '#shared/types/chat'

const definitions = JSON.parse(readFileSync(resolve(process.cwd(), 'tests/fixtures/corpora/tool-schemas/bfcl_tools.openai.json'), 'utf8')) as ToolDefinition[]
const schemaText = (tool: ToolDefinition) => JSON.stringify(tool.function.parameters)

/** A few real schemas of different shapes: the first, one with an enum, one with arrays of objects, the largest. */
const SCHEMAS = [
  definitions[0]!,
  definitions.find(tool => schemaText(tool).includes('"enum"'))!,
  definitions.find(tool => /"items":\{"type":"object"/.test(schemaText(tool).replace(/\s/g, '')))!,
  definitions.reduce((largest, tool) => (schemaText(tool).length > schemaText(largest).length ? tool : largest)),
]

/** The longest message an invalid answer may carry (InvalidToolInputError keeps it under 2 KB with the tool name). */
const MAX_MESSAGE_CHARS = 2_048

/** Values shaped like the schema's arguments (its property names, arbitrary JSON in them) or anything at all. */
function argumentsFor(tool: ToolDefinition): fc.Arbitrary<unknown> {
  const names = Object.keys(tool.function.parameters.properties ?? {})
  const nested = fc.letrec(tie => ({
    value: fc.oneof({ depthSize: 'small' }, fc.jsonValue(), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(fc.constantFrom(...names, 'x'), tie('value'), { maxKeys: 4 })),
  })).value
  return fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom(...names), nested, { maxKeys: names.length + 1 }))
}

/** Text that is JSON, nearly JSON (cut, or with a piece put in) or not JSON at all. */
const argumentText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.json(),
  fc.tuple(fc.json(), fc.nat(), fc.constantFrom('', '{', '}', '[', ']', '"', '\\', ',', ':', '__proto__', '"__proto__":1', '\\u0000', 'NaN', '1e999'))
    .map(([json, at, piece]) => json.slice(0, at % (json.length + 1)) + piece + json.slice(at % (json.length + 1))),
  fc.nat({ max: 300 }).map(depth => `${'['.repeat(depth)}1${']'.repeat(depth)}`),
  fc.nat({ max: 300 }).map(depth => `{"a":${'{"a":'.repeat(depth)}1${'}'.repeat(depth + 1)}`),
)

function expectAnswer(tool: ToolDefinition, value: unknown): void {
  const result = validateToolArguments(tool.function.name, tool.function.parameters, value)
  if (result.valid) return
  expect(result.error).toBeInstanceOf(Error)
  expect(result.error.message.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS)
}

describe('tool arguments, fuzzed', () => {
  it('parses arbitrary text into an object or a short reason, never throwing (12,000 runs)', () => {
    fc.assert(fc.property(argumentText, (text) => {
      const result = parseToolArguments(text)
      if (result.ok) {
        expect(result.value).toBeTypeOf('object')
        expect(Array.isArray(result.value)).toBe(false)
      }
      else expect(result.error.length).toBeLessThanOrEqual(400)
    }), fuzzOptions(12_000))
  })

  it.each(SCHEMAS.map(tool => [tool.function.name, tool] as const))('checks arbitrary JSON against %s: valid or a short reason, never throwing (3,000 runs)', (_, tool) => {
    fc.assert(fc.property(argumentsFor(tool), value => expectAnswer(tool, value)), fuzzOptions(3_000))
  })

  it('checks whatever arbitrary text parses to against every schema (3,000 runs)', () => {
    fc.assert(fc.property(argumentText, (text) => {
      const parsed = parseToolArguments(text)
      if (parsed.ok) for (const tool of SCHEMAS) expectAnswer(tool, parsed.value)
    }), fuzzOptions(3_000))
  })
})
