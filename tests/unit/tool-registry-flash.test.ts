import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { formatCatalogProblems, toOpenAIToolDefinition, validateRichDefinitions } from '#shared/tools/rich-definition'
import { parseToolRegistryFile } from '../../server/utils/chat/static-tool-registry'
import { collectToolRegistry, serializeToolRegistry, TOOL_REGISTRY_FILE } from '../../scripts/flash-tool-registry'
import calculate from '../../plugins/calculate'

describe('tool-registry.generated.json (npm run registry:flash)', () => {
  it('holds valid definitions', async () => {
    const file = JSON.parse(await readFile(TOOL_REGISTRY_FILE, 'utf8'))
    const { valid, problems } = validateRichDefinitions(file.tools)
    expect(formatCatalogProblems(problems)).toBe('')
    expect(valid).toBe(true)
  })

  it('is up to date with plugins/ and server/plugins/ (run `npm run registry:flash` after changing a tool)', async () => {
    const fresh = serializeToolRegistry(await collectToolRegistry())
    expect(await readFile(TOOL_REGISTRY_FILE, 'utf8')).toBe(fresh)
  })

  it('lists every plugin file and server tool once, with its runtime and command', async () => {
    const { tools } = await collectToolRegistry()
    const byId = new Map(tools.map(tool => [tool.toolId, tool]))
    expect(tools).toHaveLength(byId.size)
    expect(byId.get('calculate')).toMatchObject({ commandName: '/calc', metadata: { runtime: 'hybrid' } })
    expect(byId.get('get_weather')).toMatchObject({ commandName: '/weather', metadata: { runtime: 'client', settings: { units: { default: 'metric' } } } })
    expect(byId.get('fetch_web_page')).toMatchObject({ service: 'server', metadata: { runtime: 'server' } })
    // what the model is offered is exactly the plugin's own definition
    expect(toOpenAIToolDefinition(byId.get('calculate')!).function.parameters).toEqual(calculate.definition.function.parameters)
  })
})

describe('static tool definitions for the server (NUXT_TOOL_REGISTRY_FILE)', () => {
  it('loads the generated file as tools that are listed but never run', async () => {
    const { tools, problems } = parseToolRegistryFile(await readFile(TOOL_REGISTRY_FILE, 'utf8'))
    expect(problems).toEqual([])
    expect(tools.length).toBeGreaterThan(0)
    expect(tools.every(tool => tool.metadata?.static === true && tool.metadata.runtime === 'static')).toBe(true)
  })

  it('keeps the good entries of a file with broken ones, and says what is wrong with the others', () => {
    const good = { toolId: 'ok_tool', service: 'static', displayName: 'OK', inputSchema: {} }
    const { tools, problems } = parseToolRegistryFile(JSON.stringify({
      version: 1,
      tools: [good, { ...good, toolId: 'bad id' }, { ...good, toolId: 'pricey', costingModel: { rate: -2, unit: 'request' } }, good],
    }))
    expect(tools.map(tool => tool.toolId)).toEqual(['ok_tool'])
    expect(problems).toEqual([
      'bad id: toolId must be 1 to 64 letters, digits, "_" or "-" (got "bad id")',
      'pricey: costingModel.rate must be a number of USD per unit, 0 or more (got number)',
      'ok_tool: toolId is listed twice; the first is kept',
    ])
  })

  it('refuses a file that is not a registry', () => {
    expect(parseToolRegistryFile('{"tools": 3}').problems).toEqual(['expected { "version": 1, "tools": [...] } or an array of tool definitions'])
    expect(parseToolRegistryFile('not json').problems[0]).toMatch(/^not valid JSON/)
  })
})
