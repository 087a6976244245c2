import { describe, expect, it } from 'vitest'
import type { JsonSchemaObject } from '#shared/types/chat'
import { checkApprovalForm, createApprovalForm } from '~/utils/chat/approvals/approval-form'
import { createToolPolicies, TOOL_POLICIES_STORAGE_KEY } from '~/utils/chat/approvals/tool-policies'

const schema: JsonSchemaObject = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'City name' },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    metric: { type: 'boolean' },
    units: { type: 'string', enum: ['C', 'F'] },
    ratio: { type: 'number' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['city'],
  additionalProperties: false,
}

describe('the approval form', () => {
  it('has one field per argument, of the schema\'s kind, filled with what the model asked', () => {
    const form = createApprovalForm(schema, '{"city":"Paris","days":3,"metric":true,"units":"F","tags":["a"]}')
    expect(form.fields.map(field => [field.key, field.kind, field.required])).toEqual([
      ['city', 'string', true], ['days', 'integer', false], ['metric', 'boolean', false],
      ['units', 'enum', false], ['ratio', 'number', false], ['tags', 'json', false],
    ])
    expect(form.values).toEqual({ city: 'Paris', days: '3', metric: true, units: '"F"', ratio: '', tags: '[\n  "a"\n]' })
    expect(form.fields[0]!.description).toBe('City name')
    expect(form.fields[3]!.options).toEqual(['"C"', '"F"'])
  })

  it('reads the fields back into the arguments that run, leaving empty optional fields out', () => {
    const form = createApprovalForm(schema, '{"city":"Paris"}')
    const check = checkApprovalForm('get_weather', schema, form, { ...form.values, city: 'Lisbon', days: '2', units: '"C"', tags: '["x","y"]' }, form.json)
    expect(check).toEqual({ valid: true, errors: {}, argumentsText: '{"city":"Lisbon","days":2,"metric":false,"units":"C","tags":["x","y"]}' })
  })

  it('names the field that breaks the schema, live, with the validator the executor runs', () => {
    const form = createApprovalForm(schema, '{"city":"Paris"}')
    expect(checkApprovalForm('w', schema, form, { ...form.values, days: '9' }, form.json).errors).toEqual({ days: expect.stringMatching(/7/) })
    expect(checkApprovalForm('w', schema, form, { ...form.values, days: '1.5' }, form.json).errors).toEqual({ days: expect.stringMatching(/integer/) })
    expect(checkApprovalForm('w', schema, form, { ...form.values, days: 'two' }, form.json).errors).toEqual({ days: 'enter a number' })
    expect(checkApprovalForm('w', schema, form, { ...form.values, tags: '[1,' }, form.json).errors).toEqual({ tags: 'not valid JSON' })
    expect(checkApprovalForm('w', schema, form, { ...form.values, tags: '[1]' }, form.json).errors).toEqual({ tags: expect.stringMatching(/string/) })
    const missing = checkApprovalForm('w', { ...schema, properties: { ...schema.properties, city: { type: 'string', minLength: 1 } } }, form, { ...form.values, city: '' }, form.json)
    expect(missing.valid).toBe(false)
    expect(missing.argumentsText).toBeUndefined()
  })

  it('falls back to one JSON text box for a schema without properties or arguments that do not parse', () => {
    const loose = createApprovalForm({ type: 'object' }, '{"a":1}')
    expect(loose.fields).toEqual([])
    expect(loose.json).toBe('{\n  "a": 1\n}')
    expect(checkApprovalForm('t', { type: 'object' }, loose, {}, '{"a":2}')).toEqual({ valid: true, errors: {}, argumentsText: '{"a":2}' })
    expect(checkApprovalForm('t', { type: 'object' }, loose, {}, '[1]').errors['']).toMatch(/JSON object/)

    const broken = createApprovalForm(schema, '{"city": "Par')
    expect(broken.fields).toEqual([])
    expect(broken.json).toBe('{"city": "Par')
    expect(checkApprovalForm('t', schema, broken, {}, broken.json).valid).toBe(false)
  })

  it('keeps arguments the schema does not list, so the schema check still sees them', () => {
    const form = createApprovalForm(schema, '{"city":"Paris","extra":1}')
    expect(form.extra).toEqual({ extra: 1 })
    expect(checkApprovalForm('w', schema, form, form.values, form.json).errors['']).toMatch(/extra/)
  })
})

/** A Storage in memory, as the browser's localStorage behaves. */
function memoryStorage(): Storage {
  const items = new Map<string, string>()
  return {
    get length() { return items.size },
    clear: () => items.clear(),
    getItem: key => items.get(key) ?? null,
    key: index => [...items.keys()][index] ?? null,
    removeItem: key => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  }
}

describe('tool policies', () => {
  const registry = { getTool: (name: string) => ({ get_weather: { defaultApproval: 'ask' as const }, calculate: { defaultApproval: 'auto' as const } } as Record<string, { defaultApproval: 'ask' | 'auto' }>)[name] as never }

  it('default to the tool\'s metadata, and the user\'s choice is kept for the next page load', () => {
    const storage = memoryStorage()
    const policies = createToolPolicies({ storage, registry })
    expect(policies.policyOf('get_weather')).toBe('ask')
    expect(policies.policyOf('calculate')).toBe('auto')
    expect(policies.policyOf('unknown_tool')).toBe('auto')
    policies.setPolicy('get_weather', 'auto')
    policies.setPolicy('calculate', 'never')
    expect(policies.policyOf('get_weather')).toBe('auto')
    const reloaded = createToolPolicies({ storage, registry })
    expect(reloaded.policiesFor(['get_weather', 'calculate'])).toEqual({ get_weather: 'auto', calculate: 'never' })
    expect(reloaded.isChosen('get_weather')).toBe(true)
  })

  it('ignores stored values that are not policies, and text that is not ours', () => {
    const storage = memoryStorage()
    storage.setItem(TOOL_POLICIES_STORAGE_KEY, JSON.stringify({ version: 1, policies: { get_weather: 'always', calculate: 'never', __proto__: 'auto' } }))
    const policies = createToolPolicies({ storage, registry })
    expect(policies.policyOf('get_weather')).toBe('ask')
    expect(policies.policyOf('calculate')).toBe('never')
    storage.setItem(TOOL_POLICIES_STORAGE_KEY, '{not json')
    expect(createToolPolicies({ storage, registry }).policyOf('calculate')).toBe('auto')
  })

  it('keeps another tab\'s choices for other tools when saving', () => {
    const storage = memoryStorage()
    const first = createToolPolicies({ storage, registry })
    const second = createToolPolicies({ storage, registry })
    first.setPolicy('get_weather', 'never')
    second.setPolicy('calculate', 'ask')
    expect(createToolPolicies({ storage, registry }).policiesFor(['get_weather', 'calculate'])).toEqual({ get_weather: 'never', calculate: 'ask' })
  })
})

describe('a tool\'s default approval policy in the registry', () => {
  it('comes from `approval`, else `actsOutsideApp`, and a policy that is not one is refused at registration', async () => {
    const { createToolRegistry } = await import('~/utils/chat/tool-registry')
    const registry = createToolRegistry()
    const define = (name: string, extra: Record<string, unknown>) => ({ type: 'function' as const, function: { name }, ...extra })
    registry.registerTool(define('plain', {}), () => 'ok')
    registry.registerTool(define('outside', { actsOutsideApp: true }), () => 'ok')
    registry.registerTool(define('outside_auto', { actsOutsideApp: true, approval: 'auto' }), () => 'ok')
    expect(['plain', 'outside', 'outside_auto'].map(name => registry.getTool(name)!.defaultApproval)).toEqual(['auto', 'ask', 'auto'])
    expect(() => registry.registerTool(define('odd', { approval: 'sometimes' }), () => 'ok')).toThrow(/Tool "odd".*approval.*"auto", "ask", "never"/)
    expect(() => registry.registerTool(define('odd2', { actsOutsideApp: 'yes' }), () => 'ok')).toThrow(/Tool "odd2".*actsOutsideApp/)
  })
})
