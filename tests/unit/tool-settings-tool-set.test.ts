import { describe, expect, it } from 'vitest'
import { createToolSettingsStore, withToolSettings } from '~/utils/chat/catalog/tool-settings'
import type { ToolSet } from '#shared/tools/tool-types'
import type { ToolDefinition } from '#shared/types/chat'

const definition = (name: string): ToolDefinition => ({ type: 'function', function: { name, description: name, parameters: { type: 'object', properties: {} } } })

describe('withToolSettings', () => {
  it('reads the wrapped set\'s definitions through, so a tool offered later in the run (read_tool_result) is offered', () => {
    let later = false
    const base: ToolSet = {
      get definitions() {
        return later ? [definition('first'), definition('read_tool_result')] : [definition('first')]
      },
      get: () => undefined,
    }
    const wrapped = withToolSettings(base, () => undefined, createToolSettingsStore({ storage: null }))
    expect(wrapped.definitions.map(tool => tool.function.name)).toEqual(['first'])
    later = true
    expect(wrapped.definitions.map(tool => tool.function.name)).toEqual(['first', 'read_tool_result'])
  })
})
