// MCP: connecting to a real MCP server (the SDK's, on loopback) and listing its tools, one tool call directly and
// through the app's relay, next to the SDK's bare client (the floor), and checking a hostile 3,007-tool listing.
// Run: `node --import tsx bench/mcp.bench.ts` (or `npm run bench mcp`).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import * as h3 from 'h3'
import * as z from 'zod/v4'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker'
import { createMcpConnection } from '../shared/mcp/mcp-connection'
import { checkMcpTools } from '../shared/mcp/mcp-tool-list'
import { mcpToolHandler } from '../shared/mcp/mcp-tool-handler'
import { startMcpTestServer } from '../tests/fixtures/mcp-server/mcp-test-server'
import { formatRatio, measure, measureInterleaved, printTable, writeResult } from './lib/index'

async function startRelay(allowedHosts: string) {
  for (const name of ['defineEventHandler', 'createError', 'getQuery', 'getRequestHeader', 'setResponseHeader'] as const) {
    (globalThis as Record<string, unknown>)[name] = h3[name]
  }
  const { relayMcpRequest } = await import('../server/utils/mcp/mcp-proxy')
  const app = h3.createApp()
  app.use('/api/mcp/proxy', h3.defineEventHandler(event => relayMcpRequest(event, { allowedHosts }).then(() => undefined)))
  const server = createServer(h3.toNodeListener(app))
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    fetch: ((input: string | URL | Request, init?: RequestInit) => fetch(`${base}/api/mcp/proxy?url=${encodeURIComponent(String(input))}`, init)) as typeof fetch,
    close: () => new Promise(done => {
      server.closeAllConnections()
      server.close(done)
    }),
  }
}

/** A fresh signal per call, as the executor gives each call. */
const context = () => ({ signal: new AbortController().signal, threadId: 'bench', callId: 'bench', status: () => {}, settings: {} })

export async function runMcpBench() {
  const mcp = await startMcpTestServer({ cors: false })
  const hostile = await startMcpTestServer({ hostile: true })
  const relay = await startRelay(`127.0.0.1:${mcp.port}`)

  const connectAndList = await measure(async () => {
    const connection = createMcpConnection({ url: mcp.url, prefix: 'bench' })
    await connection.connect()
    await connection.close()
  }, { runs: 15, warmup: 3 })

  const direct = createMcpConnection({ url: mcp.url, prefix: 'bench' })
  await direct.connect()
  const echo = mcpToolHandler(direct, 'echo')
  const relayed = createMcpConnection({ url: mcp.url, prefix: 'bench', fetch: relay.fetch })
  await relayed.connect()
  const relayedEcho = mcpToolHandler(relayed, 'echo')
  const bare = new Client({ name: 'bench', version: '0' }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() })
  await bare.connect(new StreamableHTTPClientTransport(new URL(mcp.url)))
  // Side by side, round by round, against the SDK's bare client (the ratios' baseline); every party is in this process.
  const [callBare, callDirect, callRelayed] = await measureInterleaved([
    { name: 'SDK client.callTool', run: () => bare.callTool({ name: 'echo', arguments: { message: 'hi' } }), repeat: 10 },
    { name: 'ours, direct', run: () => echo({ message: 'hi' }, context()), repeat: 10 },
    { name: 'ours, through /api/mcp/proxy', run: () => relayedEcho({ message: 'hi' }, context()), repeat: 10 },
  ], { rounds: 21, warmup: 3 })

  const hostileClient = new Client({ name: 'bench', version: '0' })
  await hostileClient.connect(new StreamableHTTPClientTransport(new URL(hostile.url)))
  const listing = (await hostileClient.request({ method: 'tools/list', params: {} }, z.looseObject({ tools: z.array(z.unknown()) }))).tools
  const listingKb = Math.round(JSON.stringify(listing).length / 1024)
  const checkHostile = await measure(() => checkMcpTools(listing, 'bench'), { runs: 21, warmup: 3 })
  const hostileConnect = await measure(async () => {
    const connection = createMcpConnection({ url: hostile.url, prefix: 'bench' })
    await connection.connect()
    await connection.close()
  }, { runs: 7, warmup: 2 })

  await Promise.all([direct.close(), relayed.close(), bare.close(), hostileClient.close()])
  await relay.close()
  await Promise.all([mcp.close(), hostile.close()])

  const rows = [
    { case: 'connect + initialize + list 6 tools (fresh session)', median_ms: connectAndList.medianMs, min_ms: connectAndList.minMs, peer: '' },
    { case: 'one tools/call, direct (our wrapper; CPU ms)', median_ms: callDirect!.medianMs, min_ms: callDirect!.minMs, peer: `SDK client.callTool: ${callBare!.medianMs.toFixed(2)} ms; ours ${formatRatio(callDirect!)}` },
    { case: 'one tools/call through /api/mcp/proxy (CPU ms)', median_ms: callRelayed!.medianMs, min_ms: callRelayed!.minMs, peer: `${formatRatio(callRelayed!)} the SDK's` },
    { case: `check a hostile listing of ${listing.length} tools`, median_ms: checkHostile.medianMs, min_ms: checkHostile.minMs, peer: '' },
    { case: `connect + list the hostile server (${listingKb} KB listing)`, median_ms: hostileConnect.medianMs, min_ms: hostileConnect.minMs, peer: '' },
  ]
  printTable('MCP (medians, loopback)', rows)
  await writeResult('mcp', rows)
  return rows
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runMcpBench()
}
