/**
 * A bare SDK client for the conformance table's middle column: what the MCP SDK does with no app code around it
 * (connect, list, make the same calls as ours; no OAuth, no elicitation handler).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { plannedCalls } from './scenario-calls'

const serverUrl = process.argv.at(-1) ?? ''

async function main() {
  const client = new Client({ name: 'bare-sdk-client', version: '1.0.0' }, { capabilities: {} })
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl))
  await client.connect(transport)
  const { tools } = await client.listTools()
  for (const call of plannedCalls(process.env.MCP_CONFORMANCE_SCENARIO ?? '', tools)) await client.callTool(call)
  await transport.close()
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error('Error:', error)
  process.exit(1)
})
