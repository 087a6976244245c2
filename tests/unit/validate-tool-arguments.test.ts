import { describe, expect, it } from 'vitest'
import { InvalidToolInputError } from '#shared/errors'
import { assertToolArguments, getSchemaValidator, parseToolArguments, validateToolArguments } from '#shared/tools/validate-tool-arguments'

const weatherSchema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    days: { type: 'integer' },
    unit: { enum: ['c', 'f'] },
    count: { type: 'number', minimum: 1 },
  },
  required: ['city'],
  additionalProperties: false,
}

function issuesOf(schema: Record<string, unknown>, value: unknown): string[] {
  const result = validateToolArguments('get_weather', schema, value)
  if (result.valid) return []
  return result.error.issues.map(issue => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
}

describe('parseToolArguments', () => {
  it('reads empty and blank arguments as an empty object', () => {
    expect(parseToolArguments('')).toEqual({ ok: true, value: {} })
    expect(parseToolArguments('  \n')).toEqual({ ok: true, value: {} })
  })

  it('reports text that is not JSON', () => {
    const result = parseToolArguments('{"city": Paris}')
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toMatch(/^arguments are not valid JSON: /)
  })

  it('refuses JSON that is not an object', () => {
    expect(parseToolArguments('[1,2]')).toEqual({ ok: false, error: 'arguments must be a JSON object, got an array' })
    expect(parseToolArguments('"Paris"')).toEqual({ ok: false, error: 'arguments must be a JSON object, got a string' })
    expect(parseToolArguments('null')).toEqual({ ok: false, error: 'arguments must be a JSON object, got null' })
  })

  it('drops __proto__, constructor and prototype keys at every depth', () => {
    const result = parseToolArguments('{"__proto__":{"polluted":true},"a":{"constructor":{"prototype":{"x":1}},"b":2},"prototype":3}')
    expect(result).toEqual({ ok: true, value: { a: { b: 2 } } })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getPrototypeOf(result.ok && result.value)).toBe(Object.prototype)
  })
})

describe('validateToolArguments', () => {
  it('accepts arguments that match the schema', () => {
    expect(validateToolArguments('get_weather', weatherSchema, { city: 'Paris', days: 3, unit: 'c', count: 2 })).toEqual({ valid: true })
  })

  it('gives one short message per field', () => {
    expect(issuesOf(weatherSchema, { days: 1.5, unit: 'k', count: 0 })).toEqual([
      'city: required',
      'days: expected integer',
      'unit: must be one of "c", "f"',
      'count: must be >= 1',
    ])
  })

  it('names unexpected properties', () => {
    expect(issuesOf(weatherSchema, { city: 'Paris', country: 'FR' })).toEqual(['country: is not allowed'])
  })

  it('gives nested paths with array indexes', () => {
    const schema = {
      type: 'object',
      properties: { stops: { type: 'array', items: { type: 'object', properties: { name: { type: 'string', maxLength: 3 } }, required: ['name'] } } },
    }
    expect(issuesOf(schema, { stops: [{ name: 'abc' }, { name: 'abcd' }, {}] })).toEqual([
      'stops[1].name: must be at most 3 characters',
      'stops[2].name: required',
    ])
  })

  it('sums up anyOf of types as one expectation', () => {
    const schema = { type: 'object', properties: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } }
    expect(issuesOf(schema, { id: true })).toEqual(['id: expected string or integer'])
  })

  it('describes bounds, lengths and formats', () => {
    const schema = {
      type: 'object',
      properties: {
        low: { type: 'number', exclusiveMinimum: 0 },
        high: { type: 'number', maximum: 10 },
        tags: { type: 'array', minItems: 1 },
        code: { type: 'string', minLength: 2, pattern: '^[A-Z]+$' },
        mail: { type: 'string', format: 'email' },
        kind: { const: 'fixed' },
      },
    }
    expect(issuesOf(schema, { low: 0, high: 11, tags: [], code: 'a', mail: 'nope', kind: 'other' })).toEqual([
      'low: must be > 0',
      'high: must be <= 10',
      'tags: must have at least 1 items',
      'code: must be at least 2 characters',
      'code: does not match the required pattern',
      'mail: must be a valid email',
      'kind: must be "fixed"',
    ])
  })

  it('returns an InvalidToolInputError naming the tool and the issues', () => {
    const result = validateToolArguments('get_weather', weatherSchema, {})
    expect(result.valid).toBe(false)
    const error = !result.valid ? result.error : undefined
    expect(error).toBeInstanceOf(InvalidToolInputError)
    expect(error?.toolName).toBe('get_weather')
    expect(error?.issues).toEqual([{ path: 'city', message: 'required' }])
    expect(error?.message).toBe('invalid arguments for "get_weather": city: required')
    expect(() => assertToolArguments('get_weather', weatherSchema, {})).toThrow(InvalidToolInputError)
  })

  it('reads the draft from $schema and defaults to 2020-12', () => {
    // Keywords beside $ref are ignored up to draft-07 and applied from 2019-09 on.
    const modern = { type: 'object', $defs: { text: { type: 'string' } }, properties: { a: { $ref: '#/$defs/text', maxLength: 2 } } }
    const draft7 = { ...modern, $schema: 'http://json-schema.org/draft-07/schema#' }
    expect(validateToolArguments('t', modern, { a: 'abc' }).valid).toBe(false)
    expect(validateToolArguments('t', draft7, { a: 'abc' }).valid).toBe(true)
  })

  it('reports a schema it cannot use instead of throwing', () => {
    const broken = { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }
    expect(issuesOf(broken, { a: 1 })).toEqual([expect.stringMatching(/^the tool's parameter schema cannot be used: /)])
  })

  it('caches one validator per schema object and leaves frozen schemas untouched', () => {
    const schema = Object.freeze({ type: 'object', properties: Object.freeze({ a: Object.freeze({ type: 'string' }) }) })
    expect(getSchemaValidator(schema)).toBe(getSchemaValidator(schema))
    expect(validateToolArguments('t', schema, { a: 1 }).valid).toBe(false)
    expect(JSON.stringify(schema)).toBe('{"type":"object","properties":{"a":{"type":"string"}}}')
  })
})
