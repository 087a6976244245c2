import { describe, expect, it } from 'vitest'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import { buildBrowserCatalog } from '~/utils/chat/catalog/browser-catalog'
import { createToolCatalog } from '#shared/tools/rich-definition/tool-catalog'
import type { RegisterableToolDefinition } from '~/utils/chat/registry/tool-registry-types'

function tool(name: string, commandName?: string): RegisterableToolDefinition {
  return {
    type: 'function' as const,
    function: { name, description: `${name} does it`, parameters: { type: 'object', properties: {} } },
    ...(commandName && { catalog: { commandName } }),
  }
}

describe('slash commands of tools that declare none (MCP servers\' tools, tools written in the app)', () => {
  it('are the tool\'s own name when that is a valid command nobody declared', () => {
    const registry = createToolRegistry({ storage: null })
    registry.registerTool(tool('calculate', 'calc'), () => '')
    registry.registerTool(tool('docs__search'), () => '')
    registry.registerTool(tool('add_numbers'), () => '')
    // its name is someone else's declared command: it keeps none rather than stealing it
    registry.registerTool(tool('calc'), () => '')
    // commands are case-insensitive; too long names are not valid commands
    registry.registerTool(tool('Loud_Tool'), () => '')
    registry.registerTool(tool(`a${'b'.repeat(40)}`), () => '')
    const catalog = createToolCatalog(buildBrowserCatalog(registry.listTools.value))
    expect(catalog.findByCommand('/docs__search')?.toolId).toBe('docs__search')
    expect(catalog.findByCommand('add_numbers')?.toolId).toBe('add_numbers')
    expect(catalog.findByCommand('/calc')?.toolId).toBe('calculate')
    expect(catalog.getById('calc')?.commandName).toBeUndefined()
    expect(catalog.findByCommand('/loud_tool')?.toolId).toBe('Loud_Tool')
    expect(catalog.getById(`a${'b'.repeat(40)}`)?.commandName).toBeUndefined()
    expect(catalog.validate().problems.filter(problem => problem.path === 'commandName')).toEqual([])
  })
})
