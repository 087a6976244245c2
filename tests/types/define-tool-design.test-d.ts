import { describe, expectTypeOf, it } from 'vitest'
import type { Ref } from 'vue'
import { defineTool, listTools, registerTool, useToolRegistry } from '~/utils/chat/tools'
import type { RegisteredTool, ToolExecutionContext, ToolPlugin } from '~/utils/chat/tools'

// Design 000's "Example plugin usage", as written there: no `as const`.
const weatherTool = defineTool({
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Fetch the current weather for a city.',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    },
  },
  ui: {
    label: 'Weather lookup',
    icon: 'i-mdi:weather-partly-cloudy',
    descriptionHint: 'Let the assistant look up weather data.',
    defaultEnabled: false,
    category: 'Integrations',
  },
})

describe('defineTool in the design\'s form', () => {
  it('types registerTool\'s handler from the parameters, without as const', () => {
    registerTool(weatherTool.definition, async ({ city }, context) => {
      expectTypeOf(city).toEqualTypeOf<string>()
      expectTypeOf(context).toEqualTypeOf<ToolExecutionContext>()
      return city.toUpperCase()
    })
    registerTool(weatherTool.definition, async (args) => {
      // @ts-expect-error no such parameter
      void args.country
      // @ts-expect-error city is a string
      args.city.toFixed()
      return ''
    })
  })

  it('makes a property optional unless it is required, and reads enums and nesting', () => {
    const tool = defineTool({
      type: 'function',
      function: {
        name: 'book',
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            nights: { type: 'integer' },
            room: { type: 'string', enum: ['single', 'double'] },
            guests: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
          },
          required: ['city'],
        },
      },
    })
    registerTool(tool.definition, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string, nights?: number, room?: 'single' | 'double', guests?: Array<{ name: string }> }>()
    })
  })

  it('gives an empty object without parameters', () => {
    const tool = defineTool({ type: 'function', function: { name: 'now' } })
    registerTool(tool.definition, (args) => {
      expectTypeOf(args).toEqualTypeOf<{}>()
    })
  })

  it('is a tool plugin when given the handler too, typed the same way', () => {
    const plugin = defineTool({
      type: 'function',
      function: { name: 'roll', parameters: { type: 'object', properties: { sides: { type: 'integer' } }, required: ['sides'] } },
    }, ({ sides }) => {
      expectTypeOf(sides).toEqualTypeOf<number>()
      return sides
    })
    expectTypeOf(plugin).toMatchTypeOf<ToolPlugin>()
    // @ts-expect-error the plain form has no handler to default-export
    expectTypeOf(weatherTool).toMatchTypeOf<ToolPlugin>()
  })

  it('rejects what is not a function tool', () => {
    // @ts-expect-error parameters must be an object schema
    defineTool({ type: 'function', function: { name: 'bad', parameters: { type: 'string' } } })
    // @ts-expect-error ui.defaultEnabled is a boolean
    defineTool({ type: 'function', function: { name: 'bad' }, ui: { defaultEnabled: 'no' } })
  })
})

describe('registerTool with a plain definition', () => {
  it('accepts any handler, as before', () => {
    registerTool({ type: 'function', function: { name: 'plain' } }, (args: { anything: number }) => args.anything)
  })
})

describe('the registered tool', () => {
  it('has the design\'s refs and definition.ui', () => {
    expectTypeOf<RegisteredTool['enabled']>().toEqualTypeOf<Ref<boolean>>()
    expectTypeOf<RegisteredTool['lastError']>().toEqualTypeOf<Ref<string | null>>()
    expectTypeOf<RegisteredTool['definition']['ui']['label']>().toEqualTypeOf<string>()
    expectTypeOf<RegisteredTool['definition']['ui']['defaultEnabled']>().toEqualTypeOf<boolean | undefined>()
    expectTypeOf(listTools().value).toEqualTypeOf<readonly RegisteredTool[]>()
    expectTypeOf(useToolRegistry().tools.value).toEqualTypeOf<readonly RegisteredTool[]>()
    expectTypeOf(useToolRegistry().registerTool).toBeFunction()
  })
})
