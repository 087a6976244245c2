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
  type: 'object' as const,
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

function unknownKeys(count: number): string {
  return JSON.stringify(Object.fromEntries(Array.from({ length: count }, (_, index) => [`key${index}`, index])))
}

async function runWeather(text: string, handler = vi.fn(() => 'ok')) {
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  const [result] = await executeToolCalls([call(text)], toolSetFromArray([weatherTool(handler)]), options)
  return result!
}

describe('executeToolCalls: huge invalid arguments', () => {
  it('answers 278 KB of unknown properties with a summary of at most 2 KB', async () => {
    const handler = vi.fn(() => 'ok')
    const text = unknownKeys(18_000)
    expect(text.length).toBeGreaterThan(270_000)

    const result = await runWeather(text, handler)

    expect(handler).not.toHaveBeenCalled()
    expect(result).toMatchObject({ status: 'error', error: { kind: 'invalid-input' } })
    expect(result.content.length).toBeLessThanOrEqual(MAX_ERROR_CHARS)
    expect(result.content).toMatch(/^Error: invalid arguments for "get_weather": city: required; key0: is not allowed; key1: is not allowed; /)
    // Past 64 KB the check stops early, so the rest is a lower bound: 18,000 unknown keys and the missing city.
    const listed = result.content.match(/: (?:required|is not allowed)/g)!.length
    expect(result.content.endsWith(`; and at least ${18_001 - listed} more`)).toBe(true)
  })

  it('counts every problem of arguments up to 64 KB', async () => {
    const result = await runWeather(unknownKeys(3_000))
    expect(result.content.length).toBeLessThanOrEqual(MAX_ERROR_CHARS)
    const listed = result.content.match(/: (?:required|is not allowed)/g)!.length
    expect(listed).toBeGreaterThanOrEqual(10)
    expect(result.content.endsWith(`; and ${3_001 - listed} more`)).toBe(true)
  })

  it('answers a megabyte of wrong-typed items with the first ones', async () => {
    const tools = toolSetFromArray([{
      definition: { type: 'function', function: { name: 'tag', parameters: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } } } },
      handler: () => 'ok',
    }])
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const text = JSON.stringify({ tags: Array.from({ length: 500_000 }, () => 1) })
    const [result] = await executeToolCalls([{ id: 'c', type: 'function', function: { name: 'tag', arguments: text } }], tools, options)
    expect(result!.content.length).toBeLessThanOrEqual(MAX_ERROR_CHARS)
    expect(result!.content).toMatch(/^Error: invalid arguments for "tag": tags\[0\]: expected string; /)
  })

  it('shortens a megabyte-long unknown key to both of its ends', async () => {
    const key = `start${'k'.repeat(1_000_000)}end`
    const result = await runWeather(JSON.stringify({ city: 'Paris', [key]: 1 }))
    expect(result.content.length).toBeLessThanOrEqual(MAX_ERROR_CHARS)
    expect(result.content).toMatch(/: startk+…k+end: is not allowed(;|$)/)
  })

  it('shortens a long key written in non-ASCII letters without breaking its characters', async () => {
    const key = 'é'.repeat(200_000)
    const result = await runWeather(JSON.stringify({ city: 'Paris', [key]: 1 }))
    expect(result.content).toMatch(/: é+…é+: is not allowed(;|$)/)
  })

  it('refuses arguments over 2 MiB without parsing them', async () => {
    const parse = vi.spyOn(JSON, 'parse')
    const result = await runWeather(JSON.stringify({ city: 'x'.repeat(2 * 1024 * 1024) }))
    expect(parse).not.toHaveBeenCalled()
    expect(result.content).toBe('Error: invalid arguments for "get_weather": arguments are too long: 2097163 characters, at most 2097152 are accepted')
  })

  it('refuses arguments nested deeper than 64 levels, and takes 64', async () => {
    const nested = (depth: number) => `{"city":"Paris","extra":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`
    const handler = vi.fn(() => 'ok')
    expect((await runWeather(nested(64), handler)).status).toBe('error') // the schema forbids `extra`, but it is checked
    expect((await runWeather(nested(65), handler)).content).toBe(
      'Error: invalid arguments for "get_weather": arguments are nested too deeply: at most 64 levels of objects and arrays are accepted')
    expect((await runWeather(`{"city":"${'['.repeat(100)}"}`, handler)).status).toBe('done') // brackets in strings do not nest
    expect(handler).toHaveBeenCalledOnce()
  })

  it('quotes only a little of a megabyte of broken JSON', async () => {
    const result = await runWeather(`{"city": ${'x'.repeat(1_000_000)}`)
    expect(result.content).toMatch(/^Error: invalid arguments for "get_weather": arguments are not valid JSON: /)
    expect(result.content.length).toBeLessThanOrEqual(300)
  })

  it('lists a few allowed values of a huge enum', async () => {
    const parameters = { type: 'object' as const, properties: { code: { enum: Array.from({ length: 10_000 }, (_, index) => `code-${index}`) } } }
    const tools = toolSetFromArray([{ definition: { type: 'function', function: { name: 'lookup', parameters } }, handler: () => 'ok' }])
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const [result] = await executeToolCalls([{ id: 'c', type: 'function', function: { name: 'lookup', arguments: '{"code":"nope"}' } }], tools, options)
    expect(result!.content).toMatch(/^Error: invalid arguments for "lookup": code: must be one of "code-0", "code-1", .*…$/)
    expect(result!.content.length).toBeLessThanOrEqual(300)
  })

  it('names an unknown megabyte-long tool name by its ends only', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const name = `a${'b'.repeat(1_000_000)}c`
    const [result] = await executeToolCalls([{ id: 'c', type: 'function', function: { name, arguments: '{}' } }], toolSetFromArray([weatherTool()]), options)
    expect(result!.content).toMatch(/^Error: no tool named "ab+…b+c" is available\. Available tools: get_weather$/)
    expect(result!.content.length).toBeLessThanOrEqual(200)
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
