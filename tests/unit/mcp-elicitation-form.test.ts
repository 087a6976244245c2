// The form an MCP server's question is shown as: every field kind of the elicitation schema, defaults per SEP-1034,
// the checks before Accept, and schemas that are refused whole (too large, unknown kinds, not JSON).
import { describe, expect, it } from 'vitest'
import { checkElicitationValues, readElicitationSchema } from '#shared/mcp/mcp-elicitation-form'
import type { ElicitationForm } from '#shared/mcp/mcp-elicitation-form'
import { MAX_ELICITATION_FIELDS, MAX_ELICITATION_OPTIONS } from '#shared/mcp/mcp-limits'
import { PROFILE_FORM_SCHEMA } from '../fixtures/mcp-server/mcp-test-server'

function form(schema: unknown): ElicitationForm {
  const read = readElicitationSchema(schema)
  if ('problem' in read) throw new Error(read.problem)
  return read
}

describe('an elicitation form', () => {
  it('has one field per property, in order, with titles, kinds and bounds', () => {
    const { fields } = form(PROFILE_FORM_SCHEMA)
    expect(fields.map(field => [field.key, field.kind, field.label, field.required])).toEqual([
      ['name', 'text', 'Your name', true],
      ['email', 'text', 'Email', false],
      ['age', 'integer', 'Age', false],
      ['score', 'number', 'Score', false],
      ['subscribe', 'boolean', 'Subscribe', false],
      ['color', 'select', 'Colour', false],
      ['size', 'select', 'Size', false],
      ['toppings', 'multi-select', 'Toppings', false],
    ])
    expect(fields[0]).toMatchObject({ min: 2, max: 40 })
    expect(fields[1]).toMatchObject({ format: 'email' })
    expect(fields[2]).toMatchObject({ min: 0, max: 150 })
    expect(fields[6]!.options).toEqual([{ value: 's', label: 'Small' }, { value: 'l', label: 'Large' }])
    expect(fields[7]).toMatchObject({ min: 1, options: [{ value: 'cheese', label: 'cheese' }, { value: 'ham', label: 'ham' }, { value: 'olives', label: 'olives' }] })
  })

  it('starts every field at the schema\'s default (SEP-1034), and empty where there is none', () => {
    expect(form(PROFILE_FORM_SCHEMA).initial).toEqual({ name: '', email: '', age: '30', score: '0.5', subscribe: true, color: 'green', size: 'l', toppings: ['cheese'] })
  })

  it('ignores a default that does not fit its field', () => {
    const { initial } = form({ type: 'object', properties: {
      count: { type: 'integer', default: 2.5 },
      pick: { type: 'string', enum: ['a', 'b'], default: 'z' },
      many: { type: 'array', items: { enum: ['a', 'b'] }, default: ['b', 'nope'] },
      flag: { type: 'boolean', default: 'yes' },
    } })
    expect(initial).toEqual({ count: '', pick: '', many: ['b'], flag: false })
  })

  it('reads legacy enumNames and titled multi-selects (anyOf)', () => {
    const { fields } = form({ type: 'object', properties: {
      legacy: { type: 'string', enum: ['x', 'y'], enumNames: ['Ex', 'Why'] },
      titled: { type: 'array', items: { anyOf: [{ const: 'a', title: 'Apple' }] } },
    } })
    expect(fields[0]!.options).toEqual([{ value: 'x', label: 'Ex' }, { value: 'y', label: 'Why' }])
    expect(fields[1]).toMatchObject({ kind: 'multi-select', options: [{ value: 'a', label: 'Apple' }] })
  })

  it('accepts the defaults as they stand once the required fields are filled', () => {
    const profile = form(PROFILE_FORM_SCHEMA)
    expect(checkElicitationValues(profile, profile.initial)).toMatchObject({ valid: false, errors: { name: 'required' } })
    expect(checkElicitationValues(profile, { ...profile.initial, name: 'Ada' })).toEqual({
      valid: true, errors: {},
      content: { name: 'Ada', age: 30, score: 0.5, subscribe: true, color: 'green', size: 'l', toppings: ['cheese'] },
    })
  })

  it('says what is wrong with each field before Accept', () => {
    const profile = form(PROFILE_FORM_SCHEMA)
    const check = checkElicitationValues(profile, { ...profile.initial, name: 'A', email: 'not-an-email', age: '200', score: 'lots', toppings: [] })
    expect(check.valid).toBe(false)
    expect(check.errors).toEqual({ name: 'at least 2 characters', email: 'enter an email address', age: 'at most 150', score: 'enter a number', toppings: 'choose at least 1' })
    expect(checkElicitationValues(profile, { ...profile.initial, name: 'Ada', age: '3.5' }).errors).toEqual({ age: 'enter a whole number' })
  })

  it('checks dates, addresses and choices that are not offered', () => {
    const dates = form({ type: 'object', properties: { day: { type: 'string', format: 'date' }, site: { type: 'string', format: 'uri' }, pick: { type: 'string', enum: ['a'] } } })
    expect(checkElicitationValues(dates, { day: '2026-13-45', site: 'example', pick: 'b' }).errors).toEqual({ day: 'enter a date (YYYY-MM-DD)', site: 'enter a full address (https://…)', pick: 'choose one of the options' })
    expect(checkElicitationValues(dates, { day: '2026-11-26', site: 'https://example.com', pick: 'a' })).toMatchObject({ valid: true, content: { day: '2026-11-26', site: 'https://example.com', pick: 'a' } })
  })

  it('leaves empty optional fields out of the answer', () => {
    const optional = form({ type: 'object', properties: { note: { type: 'string' }, count: { type: 'number' }, tags: { type: 'array', items: { enum: ['a'] } } } })
    expect(checkElicitationValues(optional, optional.initial)).toEqual({ valid: true, errors: {}, content: {} })
  })

  it('refuses schemas a form cannot show, saying why', () => {
    const problem = (schema: unknown) => (readElicitationSchema(schema) as { problem?: string }).problem
    expect(problem({ type: 'array' })).toMatch(/not \{ "type": "object" \}/)
    expect(problem('nonsense')).toMatch(/not \{ "type": "object" \}/)
    expect(problem({ type: 'object', properties: { nested: { type: 'object' } } })).toMatch(/field "nested" has type "object"/)
    expect(problem({ type: 'object', properties: { when: { type: 'string', format: 'regex' } } })).toMatch(/unknown format "regex"/)
    expect(problem({ type: 'object', properties: { pick: { type: 'string', enum: [1, 2] } } })).toMatch(/choices must be strings/)
    expect(problem({ type: 'object', properties: { pick: { type: 'string', enum: [] } } })).toMatch(/no choices/)
    const many = Object.fromEntries(Array.from({ length: MAX_ELICITATION_FIELDS + 1 }, (_, index) => [`f${index}`, { type: 'string' }]))
    expect(problem({ type: 'object', properties: many })).toMatch(/33 fields \(at most 32\)/)
    expect(problem({ type: 'object', properties: { pick: { type: 'string', enum: Array.from({ length: MAX_ELICITATION_OPTIONS + 1 }, (_, index) => `o${index}`) } } })).toMatch(/101 choices/)
    expect(problem({ type: 'object', description: 'x'.repeat(20_000) })).toMatch(/larger than 16 KB/)
    const circular: Record<string, unknown> = { type: 'object' }
    circular.self = circular
    expect(problem(circular)).toMatch(/not plain JSON/)
  })

  it('keeps no reference to the server\'s schema', () => {
    const schema = { type: 'object', properties: { pick: { type: 'string', enum: ['a'] } } }
    const read = form(schema)
    schema.properties.pick.enum[0] = 'changed'
    expect(read.fields[0]!.options).toEqual([{ value: 'a', label: 'a' }])
  })
})
