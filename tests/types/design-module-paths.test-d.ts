import { describe, expectTypeOf, it } from 'vitest'
import type { ToolDefinition } from '~/utils/chat/types'
import type { ExtendedToolDefinition, RegisteredTool, ToolHandler } from '~/utils/chat/tool-registry'
import { registerTool } from '~/utils/chat/tools'

describe('the module paths design 000 names', () => {
  it('`~/utils/chat/types` gives the ToolDefinition with its optional ui metadata', () => {
    const definition: ToolDefinition = {
      type: 'function',
      function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      ui: { label: 'Weather', icon: 'i-lucide-cloud', descriptionHint: 'Open-Meteo', defaultEnabled: true, category: 'Web' },
    }
    // @ts-expect-error `ui.color` is not part of the design's metadata
    const wrong: ToolDefinition = { ...definition, ui: { color: 'red' } }
    expectTypeOf(wrong).toEqualTypeOf<ToolDefinition>()
  })

  it('`~/utils/chat/tool-registry` gives ExtendedToolDefinition, ToolHandler and RegisteredTool', () => {
    const extended: ExtendedToolDefinition = {
      type: 'function',
      function: { name: 'echo', parameters: { type: 'object', properties: {} } },
      description: 'Echoes', icon: 'i-lucide-repeat', category: 'Demo', defaultEnabled: false,
    }
    const handler: ToolHandler<{ text?: string }> = args => args.text ?? ''
    const dispose = registerTool(extended, handler)
    expectTypeOf(dispose).toEqualTypeOf<() => void>()
    expectTypeOf<RegisteredTool['name']>().toEqualTypeOf<string>()
  })
})
