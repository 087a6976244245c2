import { describe, expectTypeOf, it } from 'vitest'
import { defineTool } from '../../shared/tools/definition/define-tool'

describe('a tool\'s catalog metadata', () => {
  it('gives the handler its settings as context.settings', () => {
    defineTool({
      name: 'weather_like',
      catalog: { commandName: 'wl', settings: { units: { type: 'string', enum: ['metric', 'imperial'], default: 'metric' } } },
      handler(_args, context) {
        expectTypeOf(context.settings).toEqualTypeOf<Readonly<Record<string, unknown>>>()
        return context.settings.units === 'imperial' ? 'F' : 'C'
      },
    })
  })

  it('refuses a cost unit, input kind or setting type design 003 does not have', () => {
    defineTool({
      name: 'priced',
      // @ts-expect-error 'minute' is not a costing unit
      catalog: { costingModel: { rate: 1, unit: 'minute' } },
      handler: () => 'ok',
    })
    defineTool({
      name: 'media',
      // @ts-expect-error 'picture' is not an input kind
      catalog: { inputs: { photo: { type: 'picture' } } },
      handler: () => 'ok',
    })
    defineTool({
      name: 'configured',
      // @ts-expect-error a setting is a string, a number or a boolean
      catalog: { settings: { colour: { type: 'color' } } },
      handler: () => 'ok',
    })
  })
})
