// "Test server" in the user's language: each result names its sentence by a key of the catalogs' `mcp.probe`, and
// the English catalog's sentence, filled with the result's values, is exactly the English the probe wrote.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import en from '../../i18n/more/en.json'
import de from '../../i18n/more/de.json'
import es from '../../i18n/more/es.json'
import { formatMessage } from '~/utils/i18n-message'
import { probeMcpServer } from '~/utils/chat/mcp/server-probe/probe-mcp-server'
import type { McpProbeResult, McpProbeText } from '~/utils/chat/mcp/server-probe/probe-types'
import { testMcpServer } from '~/utils/chat/mcp/server-probe/test-mcp-server'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import type { McpTestServer } from '../fixtures/mcp-server/mcp-test-server'

const say = (catalog: typeof en, text: McpProbeText) => {
  const source = (catalog.mcp.probe as Record<string, string>)[text.key]
  expect(source, `mcp.probe.${text.key}`).toBeTypeOf('string')
  return formatMessage(source!, text.values, text.count)
}

/** The result's sentences in English from the catalog equal the probe's own; German and Spanish fill in too. */
function expectSaid(result: McpProbeResult) {
  expect(result.message, result.summary).toBeDefined()
  expect(say(en, result.message!)).toBe(result.summary)
  if (result.ok && result.note) expect(say(en, result.noteMessage!)).toBe(result.note)
  for (const catalog of [de, es] as (typeof en)[]) {
    const text = say(catalog, result.message!)
    expect(text).not.toMatch(/[{}]/)
    expect(text).not.toBe(result.summary)
  }
}

let good: McpTestServer
let guarded: McpTestServer
const hostile: ReturnType<typeof createServer>[] = []

async function serve(status: number, type: string, body: string): Promise<string> {
  const server = createServer((_, response) => response.writeHead(status, { 'content-type': type }).end(body))
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  hostile.push(server)
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
}

beforeAll(async () => {
  [good, guarded] = await Promise.all([startMcpTestServer(), startMcpTestServer({ token: 'right' })])
})
afterAll(async () => {
  await Promise.all([good.close(), guarded.close(), ...hostile.map(server => new Promise(resolve => server.close(resolve)))])
})

describe('Test server results in the catalogs', () => {
  it('OK, with the tool count\'s plural', async () => {
    const result = await probeMcpServer({ url: good.url })
    expect(result.ok).toBe(true)
    expectSaid(result)
  })

  it('sign-in asked, token refused, a web page, a wrong content type, not JSON-RPC, a 404', async () => {
    expectSaid(await probeMcpServer({ url: guarded.url }))
    expectSaid(await probeMcpServer({ url: guarded.url, token: 'wrong' }))
    expectSaid(await probeMcpServer({ url: await serve(200, 'text/html', '<!doctype html><h1>Hi</h1>') }))
    expectSaid(await probeMcpServer({ url: await serve(200, 'text/plain', 'hello') }))
    expectSaid(await probeMcpServer({ url: await serve(200, 'application/json', '{"hello":1}') }))
    expectSaid(await probeMcpServer({ url: await serve(404, 'text/plain', 'no') }))
  })

  it('a closed port, and what the browser route says: CORS, the page\'s policy, the relay\'s note', async () => {
    const closed = createServer()
    await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise(resolve => closed.close(resolve))
    expectSaid(await probeMcpServer({ url: `http://127.0.0.1:${port}/mcp` }))

    const refusing = async () => new Response(JSON.stringify({ statusCode: 403, message: 'mcp.example.com is not among the MCP servers this server relays (NUXT_MCP_ALLOWED_HOSTS).' }), { status: 403, headers: { 'content-type': 'application/json' } })
    expectSaid(await testMcpServer({ url: 'https://mcp.example.com/mcp', blockedOrigin: 'https://mcp.example.com', fetch: refusing }))
    expectSaid(await testMcpServer({
      url: 'https://mcp.example.com/mcp',
      fetch: async (input, init) => String(input).startsWith('/api/mcp/proxy') ? refusing() : init?.mode === 'no-cors' ? new Response(null) : Promise.reject(new TypeError('Failed to fetch')),
    }))
    const relayed = await testMcpServer({
      url: good.url,
      blockedOrigin: new URL(good.url).origin,
      fetch: async (input, init) => fetch(decodeURIComponent(String(input).replace('/api/mcp/proxy?url=', '')), init),
    })
    expect(relayed.ok && relayed.noteMessage).toBeTruthy()
    expectSaid(relayed)
  })
})
