// The MCP client wrapper against a real MCP server (the SDK's, on a loopback port): list, call, errors,
// list_changed, reconnect after a restart, and a hostile server's listing.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMcpConnection } from '#shared/mcp/mcp-connection'
import { mcpToolHandler } from '#shared/mcp/mcp-tool-handler'
import { MAX_MCP_TOOLS } from '#shared/mcp/mcp-limits'
import { startMcpTestServer, TINY_PNG_BASE64 } from '../fixtures/mcp-server/mcp-test-server'

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function serverAndConnection(options: Parameters<typeof startMcpTestServer>[0] = {}, connectionOptions: Partial<Parameters<typeof createMcpConnection>[0]> = {}) {
  const server = await startMcpTestServer(options)
  cleanup.push(() => server.close())
  const connection = createMcpConnection({ url: server.url, prefix: 'test', requestTimeoutMs: 5_000, ...connectionOptions })
  cleanup.push(() => connection.close())
  await connection.connect()
  return { server, connection }
}

function context(callId = 'call-1') {
  return { signal: new AbortController().signal, threadId: 't', callId, status: () => {}, settings: {} }
}

describe('an MCP connection', () => {
  it('connects and lists the server\'s tools under the server\'s prefix, with their schemas', async () => {
    const { connection } = await serverAndConnection()
    expect(connection.state.status).toBe('connected')
    expect(connection.state.tools.map(tool => tool.name)).toEqual(['test__echo', 'test__add', 'test__fail', 'test__protocol_error', 'test__tiny_image', 'test__read_note'])
    expect(connection.state.tools[1]).toMatchObject({ mcpName: 'add', description: 'Adds two numbers.', parameters: { type: 'object', required: ['a', 'b'] } })
    expect(connection.state.skipped).toEqual([])
  })

  it('calls a tool and hands the model its text', async () => {
    const { connection } = await serverAndConnection()
    expect(await mcpToolHandler(connection, 'echo')({ message: 'hello' }, context())).toBe('Echo: hello')
    expect(await mcpToolHandler(connection, 'add')({ a: 2, b: 40 }, context())).toBe('42')
  })

  it('describes an image for the model and hands the image itself to the card', async () => {
    const { connection } = await serverAndConnection()
    const onImages = vi.fn()
    const text = await mcpToolHandler(connection, 'tiny_image', onImages)({}, context('call-img'))
    expect(text).toMatch(/^A red dot\.\n\n\[Image: image\/png, \d+ bytes, shown to the user\]$/)
    expect(onImages).toHaveBeenCalledWith('call-img', [{ mimeType: 'image/png', dataUrl: `data:image/png;base64,${TINY_PNG_BASE64}` }])
  })

  it('inlines a text resource with its address', async () => {
    const { connection } = await serverAndConnection()
    expect(await mcpToolHandler(connection, 'read_note')({}, context())).toBe('[Resource note://shopping (text/plain)]\nMilk, eggs, bread.')
  })

  it('turns an isError result and a JSON-RPC error into thrown tool errors with the server\'s words', async () => {
    const { connection } = await serverAndConnection()
    await expect(mcpToolHandler(connection, 'fail')({}, context())).rejects.toThrow('The tool failed on purpose.')
    await expect(mcpToolHandler(connection, 'protocol_error')({}, context())).rejects.toThrow(/protocol_error always refuses its parameters/)
    // the connection survives a tool's failure
    expect(connection.state.status).toBe('connected')
  })

  it('follows notifications/tools/list_changed', async () => {
    const changes: string[][] = []
    const { server, connection } = await serverAndConnection({}, { onChange: state => changes.push(state.tools.map(tool => tool.name)) })
    await server.addTool('shout')
    await vi.waitFor(() => expect(connection.state.tools.map(tool => tool.name)).toContain('test__shout'), { timeout: 5_000 })
    expect(await mcpToolHandler(connection, 'shout')({ message: 'hey' }, context())).toBe('shout: hey')
  })

  it('reconnects after the server restarts, and the tools work again', async () => {
    const statuses: string[] = []
    const { server, connection } = await serverAndConnection({}, {
      reconnect: { initialDelayMs: 50, maxDelayMs: 200, maxAttempts: 50 },
      onChange: state => statuses.push(state.status),
    })
    const port = server.port
    await server.close()
    // the next call finds the connection gone: it fails, and the connection starts reconnecting
    await expect(mcpToolHandler(connection, 'echo')({ message: 'x' }, context())).rejects.toThrow()
    await vi.waitFor(() => expect(connection.state.status).toBe('reconnecting'), { timeout: 10_000 })
    const restarted = await startMcpTestServer({ port })
    cleanup.push(() => restarted.close())
    await vi.waitFor(() => expect(connection.state.status).toBe('connected'), { timeout: 10_000 })
    expect(statuses).toContain('reconnecting')
    expect(await mcpToolHandler(connection, 'echo')({ message: 'back' }, context())).toBe('Echo: back')
  })

  it('gives up after its attempts and says why', async () => {
    const server = await startMcpTestServer()
    const url = server.url
    await server.close()
    const connection = createMcpConnection({ url, prefix: 'gone', reconnect: { initialDelayMs: 10, maxDelayMs: 20, maxAttempts: 2 }, requestTimeoutMs: 2_000 })
    cleanup.push(() => connection.close())
    await connection.connect()
    await vi.waitFor(() => expect(connection.state.status).toBe('error'), { timeout: 10_000 })
    expect(connection.state.message).toMatch(/Gave up after 2 attempts/)
    // the same sentences as codes, for the app to show in the user's language
    expect(connection.state.messageText?.map(part => part.code)).toEqual(['mcp.gaveUp', 'mcp.unreachable'])
    expect(connection.state.messageText?.[0]?.params).toEqual({ attempts: 2 })
    expect(connection.state.messageText?.map(part => part.message).join(' ')).toBe(connection.state.message)
    await expect(mcpToolHandler(connection, 'echo')({ message: 'x' }, context())).rejects.toThrow(/not connected/)
  })

  it('stops at a refused token without retrying, with the HTTP reason', async () => {
    const server = await startMcpTestServer({ token: 'right' })
    cleanup.push(() => server.close())
    const connection = createMcpConnection({ url: server.url, prefix: 'auth', headers: { authorization: 'Bearer wrong' } })
    cleanup.push(() => connection.close())
    await connection.connect()
    expect(connection.state).toMatchObject({ status: 'error', attempt: 0 })
    expect(connection.state.message).toMatch(/401/)
    expect(connection.state.messageText).toEqual([{ code: 'mcp.tokenRefused', params: { status: 401 }, message: connection.state.message }])

    const good = createMcpConnection({ url: server.url, prefix: 'auth', headers: { authorization: 'Bearer right' } })
    cleanup.push(() => good.close())
    await good.connect()
    expect(good.state.status).toBe('connected')
  })

  it('keeps the good tools of a hostile listing and skips the rest with reasons', async () => {
    const { connection } = await serverAndConnection({ hostile: true })
    const { tools, skipped } = connection.state
    expect(tools.length).toBe(MAX_MCP_TOOLS)
    expect(tools.slice(0, 6).map(tool => tool.mcpName)).toEqual(['echo', 'add', 'fail', 'protocol_error', 'tiny_image', 'read_note'])
    for (const tool of tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
    const reasons = Object.fromEntries(skipped.map(item => [item.name, item.reason]))
    expect(reasons['bad name!']).toBeUndefined() // printable: kept, renamed
    expect(tools.find(tool => tool.mcpName === 'bad name!')?.name).toBe('test__bad_name_')
    expect(reasons['(empty)']).toMatch(/name is empty/)
    expect(reasons.string_schema).toMatch(/not \{ "type": "object" \}/)
    expect(reasons.huge_schema).toMatch(/KB \(at most 32 KB\)/)
    expect(skipped.filter(item => /first 128 tools/.test(item.reason)).length).toBeGreaterThan(2000)
    expect(tools.find(tool => tool.mcpName === 'huge_description')?.description?.length).toBe(2000)
    expect(connection.state.message).toMatch(/^\d+ tools skipped: /)
  })

  it('ends the session on the server when closed', async () => {
    const { server, connection } = await serverAndConnection()
    await connection.close()
    expect(connection.state.status).toBe('closed')
    expect(server.requests.some(request => request.method === 'DELETE')).toBe(true)
  })
})
