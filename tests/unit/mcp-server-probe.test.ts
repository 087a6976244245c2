import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { probeMcpServer } from '~/utils/chat/mcp/server-probe/probe-mcp-server'
import { authenticateParameter, protectedResourceMetadataUrls } from '~/utils/chat/mcp/server-probe/discover-authorization'
import { testMcpServer } from '~/utils/chat/mcp/server-probe/test-mcp-server'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import type { McpTestServer } from '../fixtures/mcp-server/mcp-test-server'

type Handler = (request: IncomingMessage, response: ServerResponse, origin: string) => void
const servers: Server[] = []

/** A small hostile HTTP server on a loopback port; its URL ends in /mcp. */
async function serve(handler: Handler, server: Server = createServer()): Promise<string> {
  const scheme = 'setSecureContext' in server ? 'https' : 'http'
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const origin = `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`
  server.on('request', (request, response) => handler(request, response, origin))
  servers.push(server)
  return `${origin}/mcp`
}

let good: McpTestServer
let guarded: McpTestServer
beforeAll(async () => {
  [good, guarded] = await Promise.all([startMcpTestServer(), startMcpTestServer({ token: 'right' })])
})
afterAll(async () => {
  await Promise.all([good.close(), guarded.close(), ...servers.map(server => new Promise((resolve) => {
    server.closeAllConnections?.()
    server.close(resolve)
  }))])
})

describe('Test server on a real MCP server', () => {
  it('says OK with the number of tools, the protocol and the server', async () => {
    const result = await probeMcpServer({ url: good.url })
    expect(result).toMatchObject({ ok: true, protocolVersion: '2025-06-18', serverName: 'plugboard-test', serverVersion: '1.0.0' })
    expect(result.ok && result.tools).toBeGreaterThan(0)
    expect(result.summary).toMatch(/^OK: \d+ tools, protocol 2025-06-18, server plugboard-test 1\.0\.0$/)
    // the probe ended its session
    await expect.poll(() => good.requests.some(request => request.method === 'DELETE')).toBe(true)
  })

  it('says the server asks to sign in, and OK with the right token', async () => {
    expect(await probeMcpServer({ url: guarded.url })).toMatchObject({ ok: false, problem: 'auth', summary: 'This server asks you to sign in.' })
    expect(await probeMcpServer({ url: guarded.url, token: 'wrong' })).toMatchObject({ ok: false, problem: 'auth', summary: 'This server refused the token (HTTP 401): it asks you to sign in.' })
    expect(await probeMcpServer({ url: guarded.url, token: 'right' })).toMatchObject({ ok: true })
  })
})

describe('Test server on servers that are not what they should be', () => {
  it('finds the authorization server through WWW-Authenticate and the protected resource metadata', async () => {
    const url = await serve((request, response, origin) => {
      if (request.url === '/.well-known/oauth-protected-resource/mcp') {
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: ['https://auth.example.com'] }))
      }
      response.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="files:read"` }).end()
    })
    const result = await probeMcpServer({ url })
    expect(result).toMatchObject({ ok: false, problem: 'auth', summary: 'This server asks you to sign in (at auth.example.com).' })
    expect(!result.ok && result.authorization).toEqual({ resourceMetadataUrl: url.replace('/mcp', '/.well-known/oauth-protected-resource/mcp'), authorizationServers: ['https://auth.example.com'], scope: 'files:read' })
  })

  it('looks for the metadata at the well-known locations when the 401 does not say where', async () => {
    const url = await serve((request, response) => {
      if (request.url === '/.well-known/oauth-protected-resource') {
        return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"authorization_servers":["https://login.example.org/tenant"]}')
      }
      response.writeHead(request.url?.startsWith('/.well-known') ? 404 : 401).end()
    })
    expect(await probeMcpServer({ url })).toMatchObject({ problem: 'auth', summary: 'This server asks you to sign in (at login.example.org).' })
  })

  it.each([
    ['a web page', (response: ServerResponse) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Docs</title>'), /web page \(HTML\), not MCP/],
    ['a 404', (response: ServerResponse) => response.writeHead(404, { 'content-type': 'text/plain' }).end('nope'), /HTTP 404 Not Found: not an MCP endpoint\. Check the path/],
    ['plain text', (response: ServerResponse) => response.writeHead(200, { 'content-type': 'text/plain' }).end('hello'), /answered with text\/plain, where MCP answers with JSON or an event stream/],
    ['JSON that is not JSON-RPC', (response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"up"}'), /not in JSON-RPC 2\.0/],
    ['a JSON-RPC error', (response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}'), /refused initialize: Method not found/],
    ['an endless answer', (response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(64 * 1024, 32)
      const write = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', write)
      }
      write()
    }, /larger than 1024 KB/],
  ])('says %s is not MCP', async (_, answer, summary) => {
    const url = await serve((request, response) => answer(response))
    const result = await probeMcpServer({ url })
    expect(result).toMatchObject({ ok: false, problem: 'not-mcp' })
    expect(result.summary).toMatch(summary)
  })

  it('gives up on a server that never answers, within its time', async () => {
    const url = await serve(() => {})
    expect(await probeMcpServer({ url, timeoutMs: 500 })).toMatchObject({ ok: false, problem: 'timeout', summary: '127.0.0.1:' + new URL(url).port + ' did not answer within 1 s.' })
  })

  it('says nothing answers at a closed port, and that a name does not resolve', async () => {
    const closed = createServer()
    await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise(resolve => closed.close(resolve))
    expect(await probeMcpServer({ url: `http://127.0.0.1:${port}/mcp` })).toMatchObject({ ok: false, problem: 'unreachable', summary: `Nothing answers at 127.0.0.1:${port} (connection refused): is the server running on that port?` })
    expect(await probeMcpServer({ url: 'http://mcp.does-not-exist.invalid/mcp' })).toMatchObject({ ok: false, problem: 'unreachable', summary: 'mcp.does-not-exist.invalid could not be found (DNS): check the address.' })
  })

  it('says a self-signed certificate is not trusted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'probe-tls-'))
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' })
    const url = await serve((request, response) => response.end('{}'), createTlsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }))
    expect(await probeMcpServer({ url })).toMatchObject({ ok: false, problem: 'tls', summary: expect.stringContaining('TLS certificate is not trusted') })
  })
})

describe('Test server in the browser: the routes and what a refusal means', () => {
  const failed = () => Promise.reject(new TypeError('Failed to fetch'))
  const relayJson = (status: number, message: string) => new Response(JSON.stringify({ statusCode: status, message }), { status, headers: { 'content-type': 'application/json' } })

  it('says CORS when the browser cannot read a server that is there, and the relay does not take it', async () => {
    const result = await testMcpServer({
      url: 'https://mcp.example.com/mcp',
      fetch: async (input, init) => {
        if (String(input).startsWith('/api/mcp/proxy')) return relayJson(403, 'mcp.example.com is not among the MCP servers this server relays (NUXT_MCP_ALLOWED_HOSTS).')
        return init?.mode === 'no-cors' ? new Response(null) : failed()
      },
    })
    expect(result).toMatchObject({ ok: false, problem: 'cors', summary: expect.stringMatching(/^mcp\.example\.com does not allow this app's origin \(CORS\)/) })
  })

  it('says unreachable when even a no-cors request fails, with the relay\'s reason when it has one', async () => {
    const refused = await testMcpServer({
      url: 'https://mcp.example.com/mcp',
      fetch: async input => String(input).startsWith('/api/mcp/proxy') ? relayJson(502, 'Could not reach the MCP server at mcp.example.com: connect ECONNREFUSED 203.0.113.9:443') : failed(),
    })
    expect(refused).toMatchObject({ ok: false, problem: 'unreachable', summary: expect.stringContaining('connection refused') })
    const unknown = await testMcpServer({ url: 'https://mcp.example.com/mcp', fetch: async input => String(input).startsWith('/api/mcp/proxy') ? relayJson(403, 'This server relays no MCP servers: its operator has not set NUXT_MCP_ALLOWED_HOSTS.') : failed() })
    expect(unknown).toMatchObject({ ok: false, problem: 'unreachable' })
  })

  it('says the page\'s policy blocks an origin the relay does not take, offering to allow it', async () => {
    const asked: string[] = []
    const result = await testMcpServer({
      url: 'https://mcp.example.com/mcp',
      blockedOrigin: 'https://mcp.example.com',
      fetch: async (input) => {
        asked.push(String(input))
        return relayJson(403, 'mcp.example.com is not among the MCP servers this server relays (NUXT_MCP_ALLOWED_HOSTS).')
      },
    })
    expect(result).toMatchObject({ ok: false, problem: 'csp', blockedOrigin: 'https://mcp.example.com', summary: expect.stringContaining('This page may not connect to https://mcp.example.com (its security policy)') })
    // never tried directly: the page would only have been refused
    expect(asked.every(url => url.startsWith('/api/mcp/proxy'))).toBe(true)
  })

  it('tests through the relay when it takes the host, and says so', async () => {
    const result = await testMcpServer({
      url: good.url,
      blockedOrigin: new URL(good.url).origin,
      fetch: async (input, init) => fetch(decodeURIComponent(String(input).replace('/api/mcp/proxy?url=', '')), init),
    })
    expect(result).toMatchObject({ ok: true, relayed: true, note: expect.stringContaining('this page may not connect to') })
  })
})

describe('sign-in discovery helpers', () => {
  it('reads WWW-Authenticate parameters, quoted or not', () => {
    expect(authenticateParameter('Bearer realm="x", resource_metadata="https://a.example/.well-known/oauth-protected-resource", scope=read', 'resource_metadata')).toBe('https://a.example/.well-known/oauth-protected-resource')
    expect(authenticateParameter('Bearer scope=read', 'scope')).toBe('read')
    expect(authenticateParameter(null, 'scope')).toBeUndefined()
  })

  it('lists the path-specific well-known location first', () => {
    expect(protectedResourceMetadataUrls('https://a.example/v1/mcp/')).toEqual(['https://a.example/.well-known/oauth-protected-resource/v1/mcp', 'https://a.example/.well-known/oauth-protected-resource'])
    expect(protectedResourceMetadataUrls('https://a.example/')).toEqual(['https://a.example/.well-known/oauth-protected-resource'])
  })
})
