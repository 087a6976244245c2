// defineTool with a zod schema, as docs/plugins.md promises: the model gets draft-07 JSON Schema of the input, and
// the handler gets what zod parsed (defaults and transforms applied).
import { describe, expect, it } from 'vitest'
import * as zodMini from 'zod/mini'
import { defineTool, InvalidToolDefinitionError, runToolForTest, z } from '~/utils/chat/plugin-api'

const forecast = defineTool({
  name: 'get_forecast',
  description: 'The forecast for a city.',
  parameters: z.object({
    city: z.string().min(1).describe('City name'),
    units: z.enum(['celsius', 'fahrenheit']).default('celsius'),
    days: z.string().transform(text => Number.parseInt(text, 10)),
  }),
  handler: args => args,
})

describe('defineTool with a zod schema', () => {
  it('offers the model the input as draft-07 JSON Schema, without a $schema key', () => {
    expect(forecast.definition.function.parameters).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1, description: 'City name' },
        units: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' },
        days: { type: 'string' },
      },
      required: ['city', 'days'],
    })
  })

  it('hands the handler what zod parsed: defaults filled in, transforms applied', async () => {
    const result = await runToolForTest(forecast.definition, forecast.handler, { city: 'Oslo', days: '3' })
    expect(result.status).toBe('done')
    expect(JSON.parse(result.content)).toEqual({ city: 'Oslo', units: 'celsius', days: 3 })
  })

  it('refuses arguments zod refuses, and names the field', async () => {
    const result = await runToolForTest(forecast.definition, forecast.handler, { city: 'Oslo', days: '3', units: 'kelvin' })
    expect(result.status).toBe('error')
    expect(result.content).toMatch(/units/)
  })

  it('says what to do with a zod/mini schema, which cannot describe itself', () => {
    expect(() => defineTool({ name: 'mini_tool', parameters: zodMini.object({ a: zodMini.string() }), handler: () => 1 }))
      .toThrow(InvalidToolDefinitionError)
    expect(() => defineTool({ name: 'mini_tool', parameters: zodMini.object({ a: zodMini.string() }), handler: () => 1 }))
      .toThrow(/z\.toJSONSchema/)
  })
})
