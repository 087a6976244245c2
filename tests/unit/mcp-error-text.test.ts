import { describe, expect, it } from 'vitest'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { cutAtWord, explainMcpError } from '#shared/mcp/mcp-error-text'

const relayRefusal = new StreamableHTTPError(403, 'Error POSTing to endpoint: {"url":"/api/mcp/proxy","statusCode":403,"statusMessage":"Forbidden","message":"mcp.example.com is not among the MCP servers this server relays (NUXT_MCP_ALLOWED_HOSTS)."}')

describe('MCP errors in plain words', () => {
  it('says a 401 or 403 is the token, and where to fix it', () => {
    for (const status of [401, 403]) {
      const text = explainMcpError(new StreamableHTTPError(status, 'Error POSTing to endpoint: {"error":"invalid_token"}'))
      expect(text.message).toBe(`The server refused the token (HTTP ${status}). Check it in Settings → MCP servers: remove the server and add it again with a valid token.`)
      expect(text.details).toContain('invalid_token')
    }
  })

  it('names NUXT_MCP_ALLOWED_HOSTS when the relay refuses the host, and keeps the relay\'s JSON for the details', () => {
    const text = explainMcpError(relayRefusal)
    expect(text.message).toContain('NUXT_MCP_ALLOWED_HOSTS')
    expect(text.message).not.toContain('{')
    expect(text.details).toContain('mcp.example.com is not among the MCP servers this server relays')
  })

  it('tells a wrong address (404), a non-MCP URL (405), a busy server (429) and a failed one (500) apart', () => {
    expect(explainMcpError(new StreamableHTTPError(404, 'Not Found')).message).toMatch(/Nothing answers at this URL.*\/mcp/)
    expect(explainMcpError(new StreamableHTTPError(405, 'Method Not Allowed')).message).toMatch(/does not speak MCP/)
    expect(explainMcpError(new StreamableHTTPError(429, 'slow down')).message).toMatch(/limiting requests/)
    expect(explainMcpError(new StreamableHTTPError(500, 'boom')).message).toMatch(/The server failed \(HTTP 500\)/)
  })

  it('says a timeout is a timeout', () => {
    expect(explainMcpError(new McpError(-32001, 'Request timed out')).message).toMatch(/did not answer in time/)
  })

  it('says an unreachable server may be offline, mistyped or refusing the origin', () => {
    expect(explainMcpError(new TypeError('Failed to fetch')).message).toMatch(/could not reach the server.*CORS/)
  })

  it('gives a JSON-RPC error\'s own message, without the code', () => {
    expect(explainMcpError(new McpError(-32602, 'Unknown tool: frobnicate')).message).toBe('The server said: Unknown tool: frobnicate')
  })

  it('never cuts a word in half', () => {
    const long = `${'word '.repeat(100)}ending`
    const text = explainMcpError(new Error(long))
    expect(text.message.endsWith('word…')).toBe(true)
    expect(text.message.length).toBeLessThanOrEqual(241)
    expect(cutAtWord('short text', 100)).toBe('short text')
    expect(cutAtWord('alpha beta gamma', 12)).toBe('alpha beta…')
  })
})
