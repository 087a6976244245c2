import { afterEach, describe, expect, it, vi } from 'vitest'
import type { OutputUnit } from '@cfworker/json-schema'
import type { ToolCall } from '#shared/types/chat'
import type { ExecutableTool } from '#shared/tools/tool-types'
import { executeToolCalls } from '#shared/tools/execute-tool-calls'
import { toolSetFromArray } from '#shared/tools/tool-set'
import { describeSchemaErrors, getSchemaValidator } from '#shared/tools/validate-tool-arguments'
import type { ToolSchema } from '#shared/tools/validate-tool-arguments'

/**
 * A model that writes hundreds of kilobytes of wrong arguments must get a short answer, built in time
 * proportional to what it wrote: the tab runs the validator on its main thread.
 */
const MAX_ERROR_CHARS = 2_048

const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
}

function weatherTool(handler = vi.fn(() => 'ok')): ExecutableTool {
  return { definition: { type: 'function', function: { name: 'get_weather', parameters: weatherSchema } }, handler }
}

function call(text: string): ToolCall {
  return { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: text } }
}

const options = { threadId: 'thread-1' }

afterEach(() => {
  vi.restoreAllMocks()
})

describe('executeToolCalls: huge invalid arguments', () => {
  it('answers 278 KB of unknown properties with a summary of at most 2 KB that counts the rest', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const handler = vi.fn(() => 'ok')
    const text = JSON.stringify(Object.fromEntries(Array.from({ length: 18_000 }, (_, index) => [`key${index}`, index])))
    expect(text.length).toBeGreaterThan(270_000)

    const [result] = await executeToolCalls([call(text)], toolSetFromArray([weatherTool(handler)]), options)

    expect(handler).not.toHaveBeenCalled()
    expect(result).toMatchObject({ status: 'error', error: { kind: 'invalid-input' } })
    expect(result!.content.length).toBeLessThanOrEqual(MAX_ERROR_CHARS)
    expect(result!.content).toMatch(/^Error: invalid arguments for "get_weather": city: required; key0: is not allowed; key1: is not allowed; /)
    // 18,000 unknown keys and the missing city: what is not listed is counted.
    const listed = result!.content.match(/: (?:required|is not allowed)/g)!.length
    expect(result!.content.endsWith(`and ${18_001 - listed} more`)).toBe(true)
  })
})

/** Reads of the validator's error objects while describing them: a deterministic stand-in for time. */
function countReads(schema: ToolSchema, value: unknown): { errors: number, reads: number } {
  const { errors } = getSchemaValidator(schema).validate(value)
  let reads = 0
  const counted = errors.map(error => new Proxy(error, {
    get(target, key) {
      reads++
      return target[key as keyof OutputUnit]
    },
  }))
  describeSchemaErrors(counted)
  return { errors: errors.length, reads }
}

const shapes: [string, ToolSchema, (count: number) => unknown][] = [
  ['unknown properties', weatherSchema, count => Object.fromEntries(Array.from({ length: count }, (_, index) => [`key${index}`, index]))],
  ['wrong-typed items', { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } },
    count => ({ tags: Array.from({ length: count }, (_, index) => index) })],
  ['objects missing a field', { type: 'object', properties: { stops: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } } },
    count => ({ stops: Array.from({ length: count }, (_, index) => ({ index })) })],
  ['items matching no alternative', { type: 'object', properties: { ids: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } } },
    count => ({ ids: Array.from({ length: count }, () => true) })],
]

describe('describeSchemaErrors: work grows linearly with the number of errors', () => {
  it.each(shapes)('%s', (_shape, schema, arguments_) => {
    const small = countReads(schema, arguments_(1_000))
    const large = countReads(schema, arguments_(2_000))
    expect(large.errors).toBeGreaterThanOrEqual(2 * small.errors - 2)
    // Quadratic describing reads every other error for each error: thousands of reads per error here.
    expect(large.reads).toBeLessThanOrEqual(12 * large.errors + 1_000)
    expect(large.reads).toBeLessThanOrEqual(2.2 * small.reads + 1_000)
  })
})
