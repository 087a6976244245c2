// GET /api/tools and POST /api/tools/:name/execute over real HTTP.
import { mkdtemp, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ServerToolList } from '#shared/types/server-tools'
import { registerBuiltInServerTools } from '~~/server/utils/chat/built-in-server-tools'
import { registerServerTool, unregisterServerTool } from '~~/server/utils/chat/tool-registry'
import { loadStaticToolRegistry } from '~~/server/utils/chat/static-tool-registry'
import { serverToolCatalog } from '~~/server/utils/chat/server-tool-catalog'
import { TOOL_BODY_LIMIT_BYTES } from '~~/server/utils/http/request-limits'
import { startToolRoutesServer } from './helpers/tool-routes-server'
import type { ToolRoutesServer } from './helpers/tool-routes-server'

let routes: ToolRoutesServer
let page: Server
let pageOrigin = ''
let disposeTools: () => void = () => {}

beforeAll(async () => {
  page = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' })
    response.end('<title>Route page</title><p>Served to the route test.</p>')
  })
  await new Promise<void>(done => page.listen(0, '127.0.0.1', done))
  pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`
  disposeTools = registerBuiltInServerTools({ fetchAllowedHosts: new URL(pageOrigin).host })
  routes = await startToolRoutesServer()
})

afterAll(async () => {
  disposeTools()
  await routes.close()
  page.closeAllConnections()
  await new Promise(done => page.close(done))
})

function execute(name: string, body: unknown, init: RequestInit = {}) {
  return fetch(`${routes.base}/api/tools/${name}/execute`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body), ...init,
  })
}

describe('GET /api/tools', () => {
  it('lists every server tool with its metadata and runtime, never its handler', async () => {
    const response = await fetch(`${routes.base}/api/tools`)
    expect(response.status).toBe(200)
    const { tools } = await response.json() as ServerToolList
    expect(tools.map(tool => [tool.name, tool.runtime])).toEqual([['calculate', 'hybrid'], ['get_current_time', 'hybrid'], ['fetch_web_page', 'server']])
    expect(tools[2]).toMatchObject({
      timeoutMs: 20_000, actsOutsideApp: true,
      definition: { type: 'function', function: { name: 'fetch_web_page', description: expect.stringContaining('public web page') }, ui: { label: 'Fetch web page', descriptionHint: expect.any(String) }, icon: 'i-lucide-globe', category: 'Web', defaultEnabled: false, runtime: 'server' },
    })
    expect(Object.keys(tools[0]!).sort()).toEqual(['actsOutsideApp', 'definition', 'name', 'runtime', 'timeoutMs'])
  })

  it('lists the catalog: every server tool as a rich definition, then the static ones of the registry file, which never run', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'plugboard-registry-')), 'tools.json')
    await writeFile(file, JSON.stringify({ version: 1, tools: [
      { toolId: 'upscale_image', service: 'comfyui', displayName: 'Upscale', inputSchema: { image: { name: 'image', type: 'image', required: true } }, costingModel: { rate: 0.0003, unit: 'second', rateSource: 'machine' } },
      // a static entry named like a live tool: the live one wins
      { toolId: 'calculate', service: 'static', displayName: 'Old calculator', inputSchema: {} },
    ] }))
    await loadStaticToolRegistry(file)
    try {
      const { tools, catalog } = await (await fetch(`${routes.base}/api/tools`)).json() as ServerToolList
      expect(catalog!.map(tool => [tool.toolId, tool.metadata?.runtime])).toEqual([
        ['calculate', 'hybrid'], ['get_current_time', 'hybrid'], ['fetch_web_page', 'server'], ['upscale_image', 'static'],
      ])
      expect(catalog![0]).toMatchObject({ displayName: 'Calculator', commandName: '/calc' })
      expect(catalog![3]).toMatchObject({ service: 'comfyui', metadata: { static: true }, costingModel: { rate: 0.0003, unit: 'second' } })
      expect(tools.map(tool => tool.name)).not.toContain('upscale_image')
      expect((await execute('upscale_image', { arguments: '{"image":"x"}' })).status).toBe(404)
      // the same catalog, with design 003's lookups, for server code
      expect(serverToolCatalog.findByCommand('/calc')?.toolId).toBe('calculate')
      expect(serverToolCatalog.getById('upscale_image')?.service).toBe('comfyui')
      expect(serverToolCatalog.getCategories()).toEqual(['General', 'Utilities', 'Web'])
      expect(serverToolCatalog.validate()).toEqual({ valid: true, problems: [] })
    }
    finally {
      await loadStaticToolRegistry('')
    }
  })
})

describe('POST /api/tools/:name/execute', () => {
  it('runs a tool and answers { result, toolName, timedOut }', async () => {
    const response = await execute('calculate', { arguments: '{"expression":"12*7"}' })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ result: '84', toolName: 'calculate', timedOut: false })
  })

  it('fetches a page through fetch_web_page', async () => {
    const { result } = await (await execute('fetch_web_page', { arguments: JSON.stringify({ url: `${pageOrigin}/` }) })).json() as { result: string }
    expect(result).toBe(`Title: Route page\nURL: ${pageOrigin}/\n\nServed to the route test.`)
  })

  it('answers 404 with the registry\'s words for a tool it does not have', async () => {
    const response = await execute('no_such_tool', { arguments: '{}' })
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ result: null, toolName: 'no_such_tool', timedOut: false, error: 'Tool "no_such_tool" is not registered on server.' })
  })

  it('answers invalid arguments with the validation error', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const response = await execute('calculate', { arguments: '{"expr":"1"}' })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ result: null, timedOut: false, error: expect.stringMatching(/^invalid arguments for "calculate": /) })
  })

  it.each([['no arguments', {}], ['arguments not text', { arguments: { expression: '1' } }], ['not JSON', '{oops']])('answers 400 for a body with %s', async (_case, body) => {
    const response = await execute('calculate', body)
    expect(response.status).toBe(400)
  })

  it('refuses a body over the limit before reading it all', async () => {
    const oversized = JSON.stringify({ arguments: JSON.stringify({ expression: '1'.repeat(TOOL_BODY_LIMIT_BYTES) }) })
    const response = await execute('calculate', oversized)
    expect(response.status).toBe(413)
  })

  it('answers a timed-out tool with timedOut: true', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    registerServerTool({ type: 'function', function: { name: 'stuck' } }, (_args, context) => new Promise((_resolve, reject) => {
      context.signal.addEventListener('abort', () => reject(context.signal.reason))
    }), { timeoutMs: 20 })
    try {
      expect(await (await execute('stuck', { arguments: '' })).json()).toEqual({ result: null, toolName: 'stuck', timedOut: true, error: 'tool "stuck" timed out after 20 ms' })
    }
    finally {
      unregisterServerTool('stuck')
    }
  })

  it('aborts the tool when the browser goes away', async () => {
    let signal: AbortSignal | undefined
    registerServerTool({ type: 'function', function: { name: 'waiting' } }, (_args, context) => {
      signal = context.signal
      return new Promise(() => {})
    }, { timeoutMs: 60_000 })
    try {
      const controller = new AbortController()
      const request = execute('waiting', { arguments: '' }, { signal: controller.signal }).catch(() => undefined)
      await vi.waitFor(() => expect(signal).toBeDefined())
      controller.abort()
      await request
      await vi.waitFor(() => expect(signal!.aborted).toBe(true))
    }
    finally {
      unregisterServerTool('waiting')
    }
  })
})
