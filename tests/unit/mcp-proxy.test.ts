// The MCP relay (/api/mcp/proxy) on h3 over real HTTP, in front of a real MCP server without CORS: what it relays,
// what it refuses, and the bounds it keeps. The session guard in front of it is checked on the built app (e2e).
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as h3 from 'h3'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createMcpConnection } from '#shared/mcp/mcp-connection'
import { mcpToolHandler } from '#shared/mcp/mcp-tool-handler'
import type { McpProxyOptions } from '~~/server/utils/mcp/mcp-proxy'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import type { McpTestServer } from '../fixtures/mcp-server/mcp-test-server'

for (const name of ['defineEventHandler', 'createError', 'getQuery', 'getRequestHeader', 'setResponseHeader'] as const) {
  (globalThis as Record<string, unknown>)[name] = h3[name]
}
const { relayMcpRequest } = await import('~~/server/utils/mcp/mcp-proxy')

interface Relay {
  base: string
  close: () => Promise<void>
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function startRelay(options: McpProxyOptions): Promise<Relay> {
  // Nitro's error handler answers { statusCode, message }; bare h3 leaves the message out
  const app = h3.createApp({
    onError: (error, event) => {
      if (event.node.res.headersSent) return
      event.node.res.writeHead(error.statusCode, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: error.statusCode, message: error.message }))
    },
  })
  app.use('/api/mcp/proxy', h3.defineEventHandler(event => relayMcpRequest(event, options).then(() => undefined)))
  const server = createServer(h3.toNodeListener(app))
  const base = await listen(server)
  return { base, close: async () => {
    server.closeAllConnections()
    await new Promise(done => server.close(done))
  } }
}

/** A fetch that sends the MCP client's requests through the relay, as the browser's proxied mode does. */
function relayedFetch(relay: Relay): typeof fetch {
  return (input, init) => fetch(`${relay.base}/api/mcp/proxy?url=${encodeURIComponent(String(input instanceof Request ? input.url : input))}`, init)
}

let mcp: McpTestServer
const cleanup: Array<() => Promise<unknown>> = []

beforeAll(async () => {
  mcp = await startMcpTestServer({ cors: false, token: 'secret-token' })
})
afterAll(() => mcp.close())
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function relay(options: Partial<McpProxyOptions> = {}) {
  const started = await startRelay({ allowedHosts: `127.0.0.1:${mcp.port}`, ...options })
  cleanup.push(started.close)
  return started
}

describe('the MCP relay', () => {
  it('lets a client list and call the tools of a server without CORS, passing the token and the session id', async () => {
    const started = await relay()
    const connection = createMcpConnection({ url: mcp.url, prefix: 'nocors', headers: { authorization: 'Bearer secret-token' }, fetch: relayedFetch(started) })
    cleanup.push(() => connection.close())
    await connection.connect()
    expect(connection.state.status).toBe('connected')
    expect(connection.state.tools.map(tool => tool.mcpName)).toContain('echo')
    expect(await mcpToolHandler(connection, 'echo')({ message: 'via relay' }, { signal: new AbortController().signal, threadId: 't', callId: 'c', status: () => {}, settings: {} })).toBe('Echo: via relay')
    const posts = mcp.requests.filter(request => request.method === 'POST')
    expect(posts.at(-1)!.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(posts.at(-1)!.headers.authorization).toBe('Bearer secret-token')
    // the app's cookies never reach the MCP server
    expect(posts.every(request => request.headers.cookie === undefined)).toBe(true)
  })

  it('relays the server\'s event stream, so list_changed arrives through it', async () => {
    const started = await relay()
    const connection = createMcpConnection({ url: mcp.url, prefix: 'nocors', headers: { authorization: 'Bearer secret-token' }, fetch: relayedFetch(started) })
    cleanup.push(() => connection.close())
    await connection.connect()
    await mcp.addTool('relayed_tool')
    await vi.waitFor(() => expect(connection.state.tools.map(tool => tool.mcpName)).toContain('relayed_tool'), { timeout: 5_000 })
  })

  it('refuses a host outside the allow-list before connecting anywhere', async () => {
    const started = await relay({ allowedHosts: 'mcp.example.com' })
    const before = mcp.requests.length
    const response = await fetch(`${started.base}/api/mcp/proxy?url=${encodeURIComponent(mcp.url)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(response.status).toBe(403)
    expect((await response.json()).message).toBe(`127.0.0.1:${mcp.port} is not among the MCP servers this server relays (NUXT_MCP_ALLOWED_HOSTS).`)
    expect(mcp.requests.length).toBe(before)
  })

  it('reads an entry without a port as the scheme\'s default port only, not every port of the host', async () => {
    // the operator allowed the host's web server (http → 80); the MCP server's own port is another one
    const started = await relay({ allowedHosts: '127.0.0.1' })
    const before = mcp.requests.length
    const response = await fetch(`${started.base}/api/mcp/proxy?url=${encodeURIComponent(mcp.url)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(response.status).toBe(403)
    expect((await response.json()).message).toBe(`127.0.0.1:${mcp.port} is not among the MCP servers this server relays (NUXT_MCP_ALLOWED_HOSTS).`)
    expect(mcp.requests.length).toBe(before)
  })

  it('is off when the allow-list is empty', async () => {
    const started = await relay({ allowedHosts: '' })
    const response = await fetch(`${started.base}/api/mcp/proxy?url=${encodeURIComponent(mcp.url)}`)
    expect(response.status).toBe(403)
    expect((await response.json()).message).toMatch(/has not set NUXT_MCP_ALLOWED_HOSTS/)
  })

  it('refuses URLs that are not plain http(s) and methods MCP does not use', async () => {
    const started = await relay({ allowedHosts: `127.0.0.1:${mcp.port},localhost` })
    for (const target of ['file:///etc/passwd', `http://user:pw@127.0.0.1:${mcp.port}/mcp`, 'not a url']) {
      const response = await fetch(`${started.base}/api/mcp/proxy?url=${encodeURIComponent(target)}`)
      expect(response.status, target).toBe(400)
    }
    expect((await fetch(`${started.base}/api/mcp/proxy?url=${encodeURIComponent(mcp.url)}`, { method: 'PUT', body: '{}' })).status).toBe(405)
  })

  it('connects to the address the allowed name resolved to once, not to a second DNS answer', async () => {
    let lookups = 0
    const started = await relay({
      allowedHosts: `mcp.example.test:${mcp.port}`,
      resolve: async () => {
        lookups++
        return [{ address: '127.0.0.1', family: 4 }]
      },
    })
    const connection = createMcpConnection({ url: `http://mcp.example.test:${mcp.port}/mcp`, prefix: 'pinned', headers: { authorization: 'Bearer secret-token' }, fetch: relayedFetch(started) })
    cleanup.push(() => connection.close())
    await connection.connect()
    expect(connection.state.status).toBe('connected')
    expect(lookups).toBeGreaterThan(0)
    expect(mcp.requests.at(-1)!.headers.host).toBe(`mcp.example.test:${mcp.port}`)
  })

  it('does not follow a redirect (to cloud metadata or anywhere else)', async () => {
    const redirecting = createServer((_request, response) => response.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end())
    const origin = await listen(redirecting)
    cleanup.push(() => new Promise(done => redirecting.close(done)))
    const started = await relay({ allowedHosts: new URL(origin).host })
    const response = await fetch(`${started.base}/api/mcp/proxy?url=${encodeURIComponent(`${origin}/mcp`)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(response.status).toBe(502)
    expect((await response.json()).message).toMatch(/redirect \(307\), which the relay does not follow/)
  })

  it('refuses an answer over its size cap and a request body over the tool limit', async () => {
    const huge = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(100_000)}"`))
    const origin = await listen(huge)
    cleanup.push(() => new Promise(done => huge.close(done)))
    const started = await relay({ allowedHosts: new URL(origin).host, maxResponseBytes: 10_000 })
    const response = await fetch(`${started.base}/api/mcp/proxy?url=${encodeURIComponent(origin)}`, { method: 'POST', body: '{}' })
    expect(response.status).toBe(502)
    expect((await response.json()).message).toMatch(/larger than/)
    const tooBig = await fetch(`${started.base}/api/mcp/proxy?url=${encodeURIComponent(origin)}`, { method: 'POST', body: 'x'.repeat(300 * 1024) })
    expect(tooBig.status).toBe(413)
  })

  it('answers 502 when a JSON answer stalls mid-body, instead of waiting for ever', async () => {
    const stalling = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' })
      response.write('{"jsonrpc":')
    })
    const origin = await listen(stalling)
    cleanup.push(async () => {
      stalling.closeAllConnections()
      await new Promise(done => stalling.close(done))
    })
    const started = await relay({ allowedHosts: new URL(origin).host, idleTimeoutMs: 300 })
    const response = await fetch(`${started.base}/api/mcp/proxy?url=${encodeURIComponent(origin)}`, { method: 'POST', body: '{}' })
    expect(response.status).toBe(502)
    expect((await response.json()).message).toMatch(/did not finish within/)
  })

  it('ends an event stream the server stopped feeding, after the idle deadline', async () => {
    const silent = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.write(': hello\n\n')
    })
    const origin = await listen(silent)
    cleanup.push(async () => {
      silent.closeAllConnections()
      await new Promise(done => silent.close(done))
    })
    const started = await relay({ allowedHosts: new URL(origin).host, idleTimeoutMs: 300 })
    const response = await fetch(`${started.base}/api/mcp/proxy?url=${encodeURIComponent(origin)}`, { headers: { accept: 'text/event-stream' } })
    expect(response.headers.get('content-type')).toBe('text/event-stream')
    // the body ends (instead of hanging): the test would time out otherwise
    expect(await response.text()).toBe(': hello\n\n')
  })
})

describe('relay slots', () => {
  it('lets one session hold a bounded number of relayed requests, and frees a slot once', async () => {
    const { takeRelaySlot } = await import('~~/server/utils/mcp/relay-slots')
    const releases = [takeRelaySlot('s', 2), takeRelaySlot('s', 2)]
    expect(takeRelaySlot('s', 2)).toBeUndefined()
    expect(takeRelaySlot('other', 2)).toBeTypeOf('function')
    releases[0]!()
    releases[0]!()
    const again = takeRelaySlot('s', 2)
    expect(again).toBeTypeOf('function')
    expect(takeRelaySlot('s', 2)).toBeUndefined()
  })
})
