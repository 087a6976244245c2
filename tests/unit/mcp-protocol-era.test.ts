// The client agrees the protocol revision with each server: the stateless revision (2026-07-28) with a server that
// offers it, the initialize handshake with older ones.
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpConnection } from '#shared/mcp/mcp-connection'
import { mcpToolHandler } from '#shared/mcp/mcp-tool-handler'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import { startStatelessTestServer, STATELESS_REVISION } from '../fixtures/mcp-server/mcp-stateless-test-server'

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

function context() {
  return { signal: new AbortController().signal, threadId: 't', callId: 'call-1', status: () => {}, settings: {} }
}

describe('protocol revision negotiation', () => {
  it('speaks the stateless revision to a server that offers it: lists and calls a tool with no handshake', async () => {
    const server = await startStatelessTestServer()
    cleanup.push(() => server.close())
    const connection = createMcpConnection({ url: server.url, prefix: 'new', requestTimeoutMs: 10_000, elicitation: true })
    cleanup.push(() => connection.close())
    await connection.connect()
    expect(connection.state).toMatchObject({ status: 'connected' })
    expect(connection.state.tools.map(tool => tool.name)).toEqual(['new__add'])
    expect(await mcpToolHandler(connection, 'add')({ a: 2, b: 40 }, context())).toBe('42')
    expect(server.requests.map(request => request.method)).toEqual(['server/discover', 'tools/list', 'tools/call'])
    for (const request of server.requests) {
      expect(request.headers['mcp-protocol-version']).toBe(STATELESS_REVISION)
      expect(request.headers['mcp-session-id']).toBeUndefined()
      expect(request.meta).toMatchObject({
        'io.modelcontextprotocol/protocolVersion': STATELESS_REVISION,
        'io.modelcontextprotocol/clientInfo': { name: 'plugboard' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} } },
      })
    }
    expect(server.requests.at(-1)?.headers['mcp-name']).toBe('add')
  })

  it('falls back to the initialize handshake with an older server, sending it nothing of the new revision', async () => {
    const server = await startMcpTestServer()
    cleanup.push(() => server.close())
    const connection = createMcpConnection({ url: server.url, prefix: 'old', requestTimeoutMs: 10_000 })
    cleanup.push(() => connection.close())
    await connection.connect()
    expect(connection.state).toMatchObject({ status: 'connected' })
    expect(await mcpToolHandler(connection, 'add')({ a: 1, b: 2 }, context())).toBe('3')
    const posts = server.requests.filter(request => request.method === 'POST')
    // the probe, then the handshake and what follows it, all without the new revision's headers
    expect(posts.length).toBeGreaterThanOrEqual(4)
    for (const request of posts.slice(1)) {
      expect(request.headers['mcp-method']).toBeUndefined()
      expect(request.headers['mcp-protocol-version']).not.toBe(STATELESS_REVISION)
    }
    expect(posts[1]?.headers['mcp-protocol-version']).toBeUndefined()
    expect(posts.at(-1)?.headers['mcp-session-id']).toBeTruthy()
  })
})
