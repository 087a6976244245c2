// The client agrees the protocol revision with each server: the stateless revision (2026-07-28) with a server that
// offers it, the initialize handshake with older ones.
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpConnection } from '#shared/mcp/mcp-connection'
import { mcpToolHandler } from '#shared/mcp/mcp-tool-handler'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import type { McpCallHooks } from '#shared/mcp/mcp-call-hooks'
import { startStatelessTestServer, STATELESS_REVISION } from '../fixtures/mcp-server/mcp-stateless-test-server'

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

function context() {
  return { signal: new AbortController().signal, threadId: 't', callId: 'call-1', status: () => {}, settings: {} }
}

async function statelessConnection(elicitation = true) {
  const server = await startStatelessTestServer()
  cleanup.push(() => server.close())
  const connection = createMcpConnection({ url: server.url, prefix: 'new', requestTimeoutMs: 10_000, elicitation })
  cleanup.push(() => connection.close())
  await connection.connect()
  return { server, connection }
}

describe('protocol revision negotiation', () => {
  it('speaks the stateless revision to a server that offers it: lists and calls a tool with no handshake', async () => {
    const { server, connection } = await statelessConnection()
    expect(connection.state).toMatchObject({ status: 'connected' })
    // the tool that would mirror an object into a header is not offered
    expect(connection.state.tools.map(tool => tool.name)).toEqual(['new__add', 'new__route', 'new__confirm'])
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

  it('mirrors a parameter the tool marks into its Mcp-Param header, encoding what is not plain ASCII', async () => {
    const { connection } = await statelessConnection()
    expect(await mcpToolHandler(connection, 'route')({ region: 'us-west1' }, context())).toBe('Region header: us-west1')
    const encoded = `=?base64?${Buffer.from(' Zürich').toString('base64')}?=`
    expect(await mcpToolHandler(connection, 'route')({ region: ' Zürich' }, context())).toBe(`Region header: ${encoded}`)
    expect(await mcpToolHandler(connection, 'route')({}, context())).toBe('Region header: undefined')
  })

  it('puts a question asked mid-call to the user through the call\'s hooks and calls again with the answer and the server\'s state', async () => {
    const { server, connection } = await statelessConnection()
    const asked: unknown[] = []
    const hooks: McpCallHooks = {
      onElicit: async (request) => {
        asked.push(request)
        return { action: 'accept', content: { confirmed: true } }
      },
    }
    expect(await connection.callTool('confirm', {}, undefined, hooks)).toMatchObject({ content: [{ type: 'text', text: 'accept true, state kept' }] })
    expect(asked).toEqual([expect.objectContaining({ mode: 'form', message: 'Go ahead?' })])
    const calls = server.requests.filter(request => request.method === 'tools/call')
    expect(calls).toHaveLength(2)
    // the second round is a new request, not a repeat of the first
    expect(calls[1]?.id).not.toEqual(calls[0]?.id)
  })

  it('declines a question when the call has no one to ask, as it does for older servers', async () => {
    const { connection } = await statelessConnection()
    expect(await connection.callTool('confirm', {}, undefined, {})).toMatchObject({ content: [{ type: 'text', text: 'decline undefined, state kept' }] })
  })

  it('fails a call whose question the client cannot take at all, in words, without hanging', async () => {
    const { connection } = await statelessConnection(false)
    await expect(connection.callTool('confirm', {}, undefined, {})).rejects.toThrow(/asked for elicitation\/create, which was not answered/)
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
