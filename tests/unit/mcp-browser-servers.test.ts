// The browser's side of MCP without a browser: the saved server list, the direct-or-relay fetch, and the manager
// that puts a real server's tools into a real tool registry.
import { unref } from 'vue'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import { createMcpBrowserFetch } from '~/utils/chat/mcp/mcp-browser-fetch'
import { createMcpServerManager } from '~/utils/chat/mcp/mcp-server-manager'
import { MCP_SERVERS_STORAGE_KEY, readMcpServerSettings, validateMcpServerInput } from '~/utils/chat/mcp/mcp-server-settings'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

function memoryStorage(initial: Record<string, string> = {}): Storage {
  const items = new Map(Object.entries(initial))
  return {
    getItem: key => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: key => void items.delete(key),
    clear: () => items.clear(),
    key: index => [...items.keys()][index] ?? null,
    get length() {
      return items.size
    },
  }
}

describe('the saved MCP servers', () => {
  it('refuses what cannot be added, with a message per field', () => {
    const existing = [{ id: '1', name: 'Docs', url: 'https://a.example/mcp' }]
    expect(validateMcpServerInput({ name: ' ', url: 'nope' }, [])).toEqual({ name: expect.stringMatching(/name/), url: expect.stringMatching(/full URL/) })
    expect(validateMcpServerInput({ name: 'docs', url: 'https://b.example/mcp' }, existing).name).toMatch(/already has this name/)
    expect(validateMcpServerInput({ name: 'x', url: 'javascript:alert(1)' }, []).url).toMatch(/Only http\(s\)/)
    expect(validateMcpServerInput({ name: 'x', url: 'https://u:p@b.example/mcp' }, []).url).toMatch(/token field/)
    expect(validateMcpServerInput({ name: 'x', url: 'https://b.example/mcp', token: 'a b' }, []).token).toMatch(/no spaces/)
    expect(validateMcpServerInput({ name: 'x', url: 'https://b.example/mcp', token: 't'.repeat(5000) }, []).token).toMatch(/longer than/)
  })

  it('drops stored entries that are not well formed', () => {
    const storage = memoryStorage({ [MCP_SERVERS_STORAGE_KEY]: JSON.stringify([
      { id: '1', name: 'Good', url: 'https://a.example/mcp', token: 'abc' },
      { id: '2', name: 'Bad', url: 'file:///etc/passwd' },
      'junk',
      { id: 3, name: 'NoId', url: 'https://c.example/mcp' },
    ]) })
    expect(readMcpServerSettings(storage)).toEqual([{ id: '1', name: 'Good', url: 'https://a.example/mcp', token: 'abc' }])
    expect(readMcpServerSettings(memoryStorage({ [MCP_SERVERS_STORAGE_KEY]: '{not json' }))).toEqual([])
  })
})

describe('the direct-or-relay fetch', () => {
  it('goes through the relay for good when the direct request fails like a refused CORS request', async () => {
    const routes: string[] = []
    const send = vi.fn(async (input: string | URL | Request) => {
      const url = String(input)
      if (!url.startsWith('/api/mcp/proxy')) throw new TypeError('Failed to fetch')
      return new Response('{}')
    })
    const fetchLike = createMcpBrowserFetch({ direct: true, fetch: send as typeof fetch, onRoute: route => routes.push(route) })
    await fetchLike(new URL('http://mcp.example/mcp'), { method: 'POST', body: '{}' })
    await fetchLike(new URL('http://mcp.example/mcp'), { method: 'POST', body: '{}' })
    expect(send.mock.calls.map(call => String(call[0]))).toEqual([
      'http://mcp.example/mcp',
      '/api/mcp/proxy?url=http%3A%2F%2Fmcp.example%2Fmcp',
      '/api/mcp/proxy?url=http%3A%2F%2Fmcp.example%2Fmcp',
    ])
    expect(routes[0]).toBe('proxy')
  })

  it('stays direct once the server answered, so a later network failure is a dropped connection, not a reroute', async () => {
    let fail = false
    const send = vi.fn(async () => {
      if (fail) throw new TypeError('Failed to fetch')
      return new Response('{}')
    })
    const fetchLike = createMcpBrowserFetch({ direct: true, fetch: send as unknown as typeof fetch })
    await fetchLike('http://mcp.example/mcp', {})
    fail = true
    await expect(fetchLike('http://mcp.example/mcp', {})).rejects.toThrow(TypeError)
    expect(send).toHaveBeenCalledTimes(2)
  })
})

describe('the MCP server manager', () => {
  it('registers a server\'s tools in the registry under its name and removes them with the server', async () => {
    const mcp = await startMcpTestServer()
    cleanup.push(() => mcp.close())
    const registry = createToolRegistry({ storage: null })
    const storage = memoryStorage()
    const manager = createMcpServerManager({ registry, storage, createId: () => 'server-1' })
    expect(manager.add({ name: 'My Notes', url: mcp.url })).toEqual({})
    await vi.waitFor(() => expect(manager.servers.value[0]?.status).toBe('connected'), { timeout: 5_000 })
    const tool = registry.getTool('my_notes__echo')!
    expect({ category: tool.category, label: tool.label, icon: tool.icon, enabled: unref(tool.enabled) }).toEqual({ category: 'My Notes', label: 'echo', icon: 'i-lucide-plug', enabled: true })
    expect(manager.servers.value[0]!.tools.map(item => item.mcpName)).toContain('read_note')
    expect(await tool.handler({ message: 'hi' }, { signal: new AbortController().signal, threadId: 't', callId: 'c', status: () => {}, settings: {} })).toBe('Echo: hi')
    expect(JSON.parse(storage.getItem(MCP_SERVERS_STORAGE_KEY)!)).toEqual([{ id: 'server-1', name: 'My Notes', url: mcp.url }])

    await mcp.addTool('fresh')
    await vi.waitFor(() => expect(registry.getTool('my_notes__fresh')).toBeDefined(), { timeout: 5_000 })

    await manager.remove('server-1')
    expect(registry.listTools.value.filter(item => item.name.startsWith('my_notes__'))).toEqual([])
    expect(JSON.parse(storage.getItem(MCP_SERVERS_STORAGE_KEY)!)).toEqual([])
  })

  it('says which tools the registry refused (a schema it cannot accept) and keeps the rest', async () => {
    const mcp = await startMcpTestServer({ hostile: true })
    cleanup.push(() => mcp.close())
    const registry = createToolRegistry({ storage: null })
    const manager = createMcpServerManager({ registry, storage: null, createId: () => 'hostile' })
    manager.add({ name: 'Hostile', url: mcp.url })
    await vi.waitFor(() => expect(manager.servers.value[0]?.status).toBe('connected'), { timeout: 10_000 })
    const view = manager.servers.value[0]!
    expect(view.message).toMatch(/tools skipped: /)
    expect(view.message).toMatch(/Not added: broken_schema/)
    expect(registry.getTool('hostile__broken_schema')).toBeUndefined()
    expect(registry.getTool('hostile__echo')).toBeDefined()
    await manager.remove('hostile')
  })

  it('stops offering a server\'s tools once it gave up reconnecting, and offers them again after Retry', async () => {
    let mcp = await startMcpTestServer()
    const port = mcp.port
    cleanup.push(() => mcp.close())
    const registry = createToolRegistry({ storage: null })
    const manager = createMcpServerManager({ registry, storage: null, createId: () => 'flaky', reconnect: { initialDelayMs: 10, maxDelayMs: 20, maxAttempts: 2 } })
    manager.add({ name: 'Flaky', url: mcp.url })
    await vi.waitFor(() => expect(manager.servers.value[0]?.status).toBe('connected'), { timeout: 5_000 })
    const offered = async () => (await registry.getToolSet({ threadId: 't' })).definitions.map(tool => tool.function.name)
    expect(await offered()).toContain('flaky__echo')

    await mcp.close()
    await expect(registry.getTool('flaky__echo')!.handler({ message: 'x' }, { signal: new AbortController().signal, threadId: 't', callId: 'c', status: () => {}, settings: {} })).rejects.toThrow()
    await vi.waitFor(() => expect(manager.servers.value[0]?.status).toBe('error'), { timeout: 10_000 })
    expect(await offered()).not.toContain('flaky__echo')
    expect(registry.getTool('flaky__echo')!.notOfferedBecause).toBe('Flaky is not connected (Settings → MCP servers)')

    mcp = await startMcpTestServer({ port })
    manager.retry('flaky')
    await vi.waitFor(() => expect(manager.servers.value[0]?.status).toBe('connected'), { timeout: 10_000 })
    expect(await offered()).toContain('flaky__echo')
    await manager.remove('flaky')
  })
})
