// What a (possibly hostile) MCP server's names and results become in the app: registry names and the model's text.
import { describe, expect, it } from 'vitest'
import { MAX_MCP_RESULT_CHARS } from '#shared/mcp/mcp-limits'
import { checkMcpTools } from '#shared/mcp/mcp-tool-list'
import { mcpServerPrefix, mcpToolName, OPENAI_TOOL_NAME } from '#shared/mcp/mcp-tool-name'
import { readMcpToolResult } from '#shared/mcp/mcp-tool-result'

describe('MCP tool names', () => {
  it('prefixes the tool with the server\'s cleaned name and stays a valid OpenAI name of at most 64 characters', () => {
    expect(mcpServerPrefix('  My Docs (prod) ')).toBe('my_docs_prod')
    expect(mcpServerPrefix('日本語')).toBe('mcp')
    expect(mcpServerPrefix('a'.repeat(50))).toBe('a'.repeat(20))
    const long = mcpToolName('docs', `search.${'x'.repeat(100)}`)
    expect(long).toMatch(OPENAI_TOOL_NAME)
    expect(long).toHaveLength(64)
    expect(mcpToolName('docs', 'get/page v2')).toBe('docs__get_page_v2')
  })

  it('numbers a name another tool already holds, within the length limit', () => {
    expect(mcpToolName('docs', 'search', new Set(['docs__search']))).toBe('docs__search_2')
    expect(mcpToolName('docs', 'search', new Set(['docs__search', 'docs__search_2']))).toBe('docs__search_3')
    const base = mcpToolName('docs', 'y'.repeat(80))
    const second = mcpToolName('docs', 'y'.repeat(80), new Set([base]))
    expect(second).toHaveLength(64)
    expect(second.endsWith('_2')).toBe(true)
  })

  it('keeps two server tools apart when cleaning makes their names equal', () => {
    const { tools } = checkMcpTools([
      { name: 'get page', inputSchema: { type: 'object' } },
      { name: 'get_page', inputSchema: { type: 'object' } },
    ], 'docs')
    expect(tools.map(tool => [tool.name, tool.mcpName])).toEqual([['docs__get_page', 'get page'], ['docs__get_page_2', 'get_page']])
  })

  it('skips a schema nested past the limit and a listing entry that is not an object', () => {
    let deep: Record<string, unknown> = { type: 'string' }
    for (let level = 0; level < 40; level++) deep = { type: 'object', properties: { a: deep } }
    const { tools, skipped } = checkMcpTools([{ name: 'deep', inputSchema: deep }, null, 42], 'x')
    expect(tools).toEqual([])
    expect(skipped.map(item => item.reason)).toEqual([
      'its input schema is nested deeper than 32 levels',
      expect.stringMatching(/name is empty/),
      expect.stringMatching(/name is empty/),
    ])
  })
})

describe('MCP tool results', () => {
  it('describes audio, binary resources and links, and never shows an SVG or a non-base64 image', () => {
    const result = readMcpToolResult({ content: [
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'file:///a.bin', mimeType: 'application/octet-stream', blob: 'AAAAAAAA' } },
      { type: 'resource_link', uri: 'https://example.com/doc', name: 'The doc' },
      { type: 'image', data: 'PHN2Zz48L3N2Zz4=', mimeType: 'image/svg+xml' },
      { type: 'image', data: 'not base64!', mimeType: 'image/png' },
      { type: 'mystery' },
    ] })
    expect(result.text.split('\n\n')).toEqual([
      '[Audio: audio/wav, 3 bytes]',
      '[Resource file:///a.bin (application/octet-stream)] binary, 6 bytes',
      '[Resource link: The doc <https://example.com/doc>]',
      '[Image: image/svg+xml, 12 bytes]',
      '[Image: image/png, 8 bytes]',
      '[Content of type "mystery"]',
    ])
    expect(result.images).toEqual([])
  })

  it('falls back to the structured content, flags isError, and caps the text', () => {
    expect(readMcpToolResult({ content: [], structuredContent: { temperature: 21 } }).text).toBe('{"temperature":21}')
    expect(readMcpToolResult({ isError: true, content: [{ type: 'text', text: 'nope' }] })).toEqual({ isError: true, text: 'nope', images: [] })
    expect(readMcpToolResult('garbage')).toEqual({ isError: false, text: '', images: [] })
    const huge = readMcpToolResult({ content: [{ type: 'text', text: 'z'.repeat(MAX_MCP_RESULT_CHARS + 10) }] })
    expect(huge.text.length).toBeLessThan(MAX_MCP_RESULT_CHARS + 100)
    expect(huge.text).toMatch(/cut at \d+ characters/)
  })
})
