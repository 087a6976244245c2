// The browser's side: server-only tools join the browser registry (popover, switches) and a chat in the tab runs
// them through the execute route. Registry and executor are the app's own; the routes run on h3 over HTTP.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { executeToolCalls } from '#shared/tools/execute-tool-calls'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import { createToolErrorListener } from '~/utils/chat/registry/tool-error-listener'
import { toolCallEndEvent } from '#shared/loop/loop-event'
import { serverToolHandler, withServerTools } from '~/utils/chat/tool-set/server-tools'
import type { LoadToolPluginsResult } from '~/utils/chat/registry/load-tool-plugins'
import { registerServerTool, unregisterServerTool } from '~~/server/utils/chat/tool-registry'
import { registerBuiltInServerTools } from '~~/server/utils/chat/built-in-server-tools'
import { startToolRoutesServer } from './helpers/tool-routes-server'
import type { ToolRoutesServer } from './helpers/tool-routes-server'

let routes: ToolRoutesServer
const disposers: Array<() => void> = []

beforeAll(async () => {
  disposers.push(registerBuiltInServerTools())
  disposers.push(registerServerTool({ type: 'function', function: { name: 'server_echo', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }, ui: { label: 'Echo', category: 'Test' } },
    ({ text }: { text: string }) => `echo: ${text}`, { runtime: 'server', timeoutMs: 1_000 }))
  disposers.push(registerServerTool({ type: 'function', function: { name: 'server_broken' } }, () => {
    throw new Error('the upstream is down')
  }, { runtime: 'server' }))
  routes = await startToolRoutesServer()
})

afterAll(async () => {
  disposers.forEach(dispose => dispose())
  await routes.close()
})

afterEach(() => {
  vi.restoreAllMocks()
})

const noPlugins = (): LoadToolPluginsResult => ({ loaded: [], failed: [], dispose: () => {} })

function call(name: string, args: unknown) {
  return { id: `call_${name}`, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } }
}

describe('server tools in the browser', () => {
  it('adds the server-only tools with their metadata and leaves hybrid ones to the browser\'s plugins', async () => {
    const registry = createToolRegistry()
    const result = await withServerTools(noPlugins(), registry, { baseUrl: routes.base })
    expect(result.loaded).toEqual(['fetch_web_page', 'server_echo', 'server_broken'])
    expect(registry.getTool('calculate')).toBeUndefined()
    expect(registry.getTool('fetch_web_page')).toMatchObject({ label: 'Fetch web page', icon: 'i-lucide-globe', category: 'Web', timeoutMs: 25_000 })
    expect(registry.getTool('fetch_web_page')!.enabled.value).toBe(false)
    expect(registry.getTool('server_echo')).toMatchObject({ label: 'Echo', category: 'Test', timeoutMs: 6_000 })
    expect(registry.getTool('server_echo')!.enabled.value).toBe(true)
    result.dispose()
    expect(registry.listTools().value).toEqual([])
  })

  it('keeps a browser tool that has the same name as a server tool', async () => {
    const registry = createToolRegistry()
    registry.registerTool({ type: 'function', function: { name: 'server_echo' } }, () => 'the browser\'s')
    await withServerTools(noPlugins(), registry, { baseUrl: routes.base })
    expect(await registry.getTool('server_echo')!.handler({}, { signal: new AbortController().signal, threadId: 't', callId: 'c', status: () => {}, settings: {} })).toBe('the browser\'s')
  })

  it('runs a server tool from the browser\'s executor through the execute route', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const registry = createToolRegistry()
    await withServerTools(noPlugins(), registry, { baseUrl: routes.base })
    const tools = await registry.getToolSet({ threadId: 't' })
    const [echo, broken] = await executeToolCalls([call('server_echo', { text: 'hi' }), call('server_broken', {})], tools, {
      threadId: 't',
      // As in a loop run: the registry's lastError follows the call's end event.
      onResult: result => createToolErrorListener(registry)(toolCallEndEvent(1, result)),
    })
    expect(echo).toMatchObject({ status: 'done', content: 'echo: hi' })
    // the server's reason, without the tool name twice
    expect(broken).toMatchObject({ status: 'error', content: 'Error: tool "server_broken" failed: the upstream is down' })
    expect(registry.getTool('server_broken')!.lastError.value).toBe('tool "server_broken" failed: the upstream is down')
  })

  it('still loads the browser\'s tools when the server cannot list its own, warning except before a sign-in', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const registry = createToolRegistry()
    const plugins = { ...noPlugins(), loaded: ['calculate'] }
    const unauthorized = async () => new Response('{}', { status: 401 })
    expect(await withServerTools(plugins, registry, { fetch: unauthorized })).toBe(plugins)
    expect(warn).not.toHaveBeenCalled()
    const offline = async () => {
      throw new TypeError('fetch failed')
    }
    expect(await withServerTools(plugins, registry, { fetch: offline })).toBe(plugins)
    expect(warn).toHaveBeenCalledWith('[plugboard] server tools are not available: fetch failed')
  })

  it('reports a tool the server no longer has in the server\'s words', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const registry = createToolRegistry()
    await withServerTools(noPlugins(), registry, { baseUrl: routes.base })
    unregisterServerTool('server_echo')
    const [result] = await executeToolCalls([call('server_echo', { text: 'hi' })], await registry.getToolSet({ threadId: 't' }), { threadId: 't' })
    expect(result).toMatchObject({ status: 'error', content: 'Error: tool "server_echo" failed: Tool "server_echo" is not registered on server.' })
  })

  it('shows the server\'s message when the route refuses the run (rate limit, session)', async () => {
    const tooMany = async () => Response.json({ statusCode: 429, statusMessage: 'Too Many Requests', message: 'Too many requests to this server: at most 120 a minute. Try again in 4 s.' }, { status: 429 })
    const handler = serverToolHandler('fetch_web_page', { fetch: tooMany })
    await expect(Promise.resolve(handler({ url: 'https://example.com/' }, { signal: new AbortController().signal, threadId: 't', callId: 'c', status: () => {}, settings: {} })))
      .rejects.toThrow('Too many requests to this server: at most 120 a minute. Try again in 4 s.')
  })
})
