import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import type { PluginToolContext } from '#shared/tools/tool-types'
import { defineTool } from '../../shared/tools/definition/define-tool'
import type { FromSchema } from '../../shared/tools/definition/json-schema-type'

describe('defineTool with a JSON Schema written as const', () => {
  it('infers required, optional, enum, array, nested and nullable properties', () => {
    defineTool({
      name: 'book',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          nights: { type: 'integer' },
          budget: { type: 'number' },
          breakfast: { type: 'boolean' },
          room: { type: 'string', enum: ['single', 'double'] },
          guests: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
          note: { type: ['string', 'null'] },
          version: { const: 2 },
        },
        required: ['city', 'nights'],
      } as const,
      handler(args, context) {
        expectTypeOf(args).toEqualTypeOf<{
          city: string
          nights: number
          budget?: number
          breakfast?: boolean
          room?: 'single' | 'double'
          guests?: Array<{ name: string }>
          note?: string | null
          version?: 2
        }>()
        expectTypeOf(context).toEqualTypeOf<PluginToolContext>()
        // @ts-expect-error city is a string, not a number
        args.city.toFixed()
        // @ts-expect-error no such property
        void args.country
      },
    })
  })

  it('gives an empty object when there are no parameters', () => {
    defineTool({
      name: 'now',
      handler(args) {
        expectTypeOf(args).toEqualTypeOf<{}>()
      },
    })
  })

  it('maps schema pieces one by one', () => {
    expectTypeOf<FromSchema<{ type: 'null' }>>().toEqualTypeOf<null>()
    expectTypeOf<FromSchema<{ type: 'array' }>>().toEqualTypeOf<unknown[]>()
    expectTypeOf<FromSchema<{ type: 'object' }>>().toEqualTypeOf<Record<string, unknown>>()
    expectTypeOf<FromSchema<{ enum: readonly ['a', 1] }>>().toEqualTypeOf<'a' | 1>()
    expectTypeOf<FromSchema<{ anyOf: readonly [{ type: 'string' }, { type: 'number' }] }>>().toEqualTypeOf<string | number>()
    expectTypeOf<FromSchema<{ description: 'no type' }>>().toEqualTypeOf<unknown>()
  })

  it('rejects parameters that are not an object schema', () => {
    // @ts-expect-error parameters must be an object schema
    defineTool({ name: 'bad', parameters: { type: 'string' } as const, handler: () => 1 })
  })
})

describe('defineTool with a zod schema', () => {
  it('infers the output type, with defaults applied', () => {
    defineTool({
      name: 'zod_tool',
      parameters: z.object({
        query: z.string(),
        limit: z.number().int().default(10),
        mode: z.enum(['fast', 'exact']).optional(),
        tags: z.array(z.string()),
      }),
      handler(args) {
        expectTypeOf(args).toEqualTypeOf<{ query: string, limit: number, mode?: 'fast' | 'exact' | undefined, tags: string[] }>()
        // @ts-expect-error limit is a number
        args.limit.toUpperCase()
      },
    })
  })

  it('requires a name and a handler', () => {
    // @ts-expect-error name is missing
    defineTool({ parameters: z.object({}), handler: () => 1 })
    // @ts-expect-error handler is missing
    defineTool({ name: 'no_handler' })
  })
})
