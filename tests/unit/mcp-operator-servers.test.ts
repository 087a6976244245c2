// NUXT_MCP_SERVERS: the operator's MCP servers become server tools (design 002's registry) that the execute route
// and server-run chats use, following the server's tool list.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { executeServerTool, getServerTool, listServerTools } from '~~/server/utils/chat/tool-registry'
import { parseOperatorMcpServers, startOperatorMcpServers } from '~~/server/utils/mcp/operator-mcp-servers'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { startChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import { abortRunningJob } from '~~/server/utils/background-jobs/runner/running-jobs'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import { startMcpOAuthTestServer } from '../fixtures/mcp-server/mcp-oauth-test-server'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

describe('parseOperatorMcpServers', () => {
  it('reads the JSON text or the array Nuxt parsed it into', () => {
    const json = '[{ "name": "Docs", "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer x" } }]'
    const expected = [{ name: 'Docs', url: 'https://mcp.example.com/mcp', headers: { authorization: 'Bearer x' } }]
    expect(parseOperatorMcpServers(json)).toEqual({ servers: expected, problems: [] })
    expect(parseOperatorMcpServers(JSON.parse(json))).toEqual({ servers: expected, problems: [] })
    expect(parseOperatorMcpServers('')).toEqual({ servers: [], problems: [] })
  })

  it('names every entry it cannot use and keeps the others', () => {
    const { servers, problems } = parseOperatorMcpServers([
      { name: 'ok', url: 'http://127.0.0.1:1/mcp' },
      { name: '', url: 'http://a/mcp' },
      { name: 'ftp', url: 'ftp://a/mcp' },
      { name: 'OK', url: 'http://b/mcp' },
      { name: 'inject', url: 'http://c/mcp', headers: { 'x-a': 'b\r\nx-evil: 1' } },
    ])
    expect(servers.map(server => server.name)).toEqual(['ok', 'inject'])
    expect(servers[1]!.headers).toEqual({})
    expect(problems).toEqual([
      'NUXT_MCP_SERVERS[1]: "name" must be 1 to 40 characters',
      'NUXT_MCP_SERVERS[2] (ftp): "url" must be http(s)',
      'NUXT_MCP_SERVERS[3] (OK): another server already has this name',
      'NUXT_MCP_SERVERS[4] (inject): header "x-a" is not a plain string header',
    ])
    expect(parseOperatorMcpServers('{ nope').problems[0]).toMatch(/^NUXT_MCP_SERVERS is not valid JSON/)
  })

  it('reads OAuth client credentials and names an entry whose credentials are not strings', () => {
    const { servers, problems } = parseOperatorMcpServers([
      { name: 'cc', url: 'https://a.example/mcp', oauth: { clientId: 'id', clientSecret: 'secret', scope: 'mcp:tools' } },
      { name: 'bad', url: 'https://b.example/mcp', oauth: { clientId: 'id' } },
    ])
    expect(servers[0]!.oauth).toEqual({ clientId: 'id', clientSecret: 'secret', scope: 'mcp:tools' })
    expect(servers[1]!.oauth).toBeUndefined()
    expect(problems).toEqual(['NUXT_MCP_SERVERS[1] (bad): "oauth" must be { "clientId", "clientSecret", "scope"?, "issuer"? } of strings'])
  })
})

describe('an operator server with OAuth client credentials', () => {
  it('gets a token by the client_credentials grant and lists its tools as server tools', async () => {
    const server = await startMcpOAuthTestServer({ clientCredentials: { clientId: 'ops', clientSecret: 's3cret' } })
    cleanup.push(() => server.close())
    const connected = new Promise<void>(resolve => {
      const stop = startOperatorMcpServers([{ name: 'secured', url: server.url, oauth: { clientId: 'ops', clientSecret: 's3cret', issuer: server.origin } }], {
        onState: (_server, state) => state.status === 'connected' && resolve(),
      })
      cleanup.push(stop)
    })
    await connected
    expect(server.grants).toEqual(['client_credentials'])
    expect(getServerTool('secured__echo')).toBeDefined()
  })
})

describe('startOperatorMcpServers', () => {
  it('registers each tool as a server tool that asks first, runs it, and follows list_changed', async () => {
    const mcp = await startMcpTestServer({ cors: false })
    cleanup.push(() => mcp.close())
    const stop = startOperatorMcpServers([{ name: 'Ops Tools', url: mcp.url }])
    cleanup.push(stop)
    await vi.waitFor(() => expect(getServerTool('ops_tools__echo')).toBeDefined(), { timeout: 5_000 })
    expect(getServerTool('ops_tools__echo')).toMatchObject({
      runtime: 'server', actsOutsideApp: true,
      definition: { ui: { category: 'Ops Tools', label: 'echo', defaultEnabled: false }, function: { description: 'Echoes the message back.' } },
    })
    expect(await executeServerTool('ops_tools__echo', '{"message":"from the server"}')).toMatchObject({ result: 'Echo: from the server', timedOut: false })
    expect(await executeServerTool('ops_tools__fail', '{}')).toMatchObject({ result: null, error: expect.stringContaining('The tool failed on purpose.') })
    // arguments are checked against the MCP tool's schema before anything is sent
    expect(await executeServerTool('ops_tools__add', '{"a":"two"}')).toMatchObject({ result: null, error: expect.stringMatching(/invalid/i) })

    await mcp.addTool('late')
    await vi.waitFor(() => expect(getServerTool('ops_tools__late')).toBeDefined(), { timeout: 5_000 })

    await stop()
    expect(listServerTools().filter(tool => tool.name.startsWith('ops_tools__'))).toEqual([])
  })

  it('lets a chat running on the server call an operator MCP tool', async () => {
    const mcp = await startMcpTestServer({ cors: false })
    cleanup.push(() => mcp.close())
    cleanup.push(startOperatorMcpServers([{ name: 'jobs', url: mcp.url }]))
    await vi.waitFor(() => expect(getServerTool('jobs__add')).toBeDefined(), { timeout: 5_000 })
    const store = createMemoryJobStore()
    const model = createScriptedModel([toolCallStep([{ name: 'jobs__add', id: 'm1', args: { a: 20, b: 22 } }]), textStep('It is 42.')])
    const job = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [{ role: 'user', content: 'add' }], model, serverToolNames: ['jobs__add'],
      // operator MCP tools ask first; the tab sends the user's "Run without asking" with the job
      toolPolicies: { jobs__add: 'auto' } })
    await vi.waitUntil(async () => ['done', 'failed'].includes((await store.getJob(job.id))?.status ?? ''), { timeout: 10_000 })
    expect(model.requests[0]!.tools?.map(tool => tool.function.name)).toEqual(['jobs__add'])
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'm1', name: 'jobs__add', content: '42' })
  })

  it('asks before an operator MCP tool runs in a chat on the server: the job pauses until the user answers', async () => {
    const mcp = await startMcpTestServer({ cors: false })
    cleanup.push(() => mcp.close())
    cleanup.push(startOperatorMcpServers([{ name: 'asks', url: mcp.url }]))
    await vi.waitFor(() => expect(getServerTool('asks__add')).toBeDefined(), { timeout: 5_000 })
    const store = createMemoryJobStore()
    const model = createScriptedModel([toolCallStep([{ name: 'asks__add', id: 'm1', args: { a: 1, b: 2 } }]), textStep('3')])
    const job = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [{ role: 'user', content: 'add' }], model, serverToolNames: ['asks__add'] })
    await vi.waitUntil(async () => (await store.getJob(job.id))?.status === 'paused', { timeout: 10_000 })
    expect(model.requests).toHaveLength(1)
    expect(abortRunningJob(job.id)).toBe(true)
    await vi.waitUntil(async () => (await store.getJob(job.id))?.status !== 'paused', { timeout: 10_000 })
  })
})
