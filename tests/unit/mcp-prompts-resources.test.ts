// An MCP server's prompts (slash commands) and resources (attachable documents), against a real MCP server and
// against listings and results no server should send.
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpConnection } from '#shared/mcp/mcp-connection'
import { MAX_MCP_PROMPTS, MAX_MCP_RESOURCE_TEXT_CHARS } from '#shared/mcp/mcp-limits'
import { checkMcpPrompts, readMcpPromptMessages } from '#shared/mcp/mcp-prompts'
import { checkMcpResources, readMcpResourceText } from '#shared/mcp/mcp-resources'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function connect(interactive = true) {
  const server = await startMcpTestServer({ interactive })
  cleanup.push(() => server.close())
  const connection = createMcpConnection({ url: server.url, prefix: 'test', requestTimeoutMs: 5_000 })
  cleanup.push(() => connection.close())
  await connection.connect()
  return connection
}

describe('an MCP server\'s prompts', () => {
  it('are listed at connect under the server\'s prefix, their arguments as a form\'s string fields', async () => {
    const connection = await connect()
    expect(connection.state.prompts).toEqual([
      { name: 'test__greet', mcpName: 'greet', title: 'Greeting', description: 'Asks for a greeting.', parameters: { type: 'object', properties: { name: { type: 'string', description: 'Who to greet' }, style: { type: 'string', description: 'How' } }, required: ['name'] } },
      { name: 'test__mixed', mcpName: 'mixed', description: 'A prompt with an image and a resource.', parameters: { type: 'object', properties: {} } },
    ])
    expect(connection.state.hasResources).toBe(true)
  })

  it('are not asked for from a server that has none', async () => {
    const connection = await connect(false)
    expect(connection.state.prompts).toBeUndefined()
    expect(connection.state.hasResources).toBe(false)
  })

  it('become the text of the user\'s message: text as it is, images and resources named, the assistant\'s marked', async () => {
    const connection = await connect()
    expect(readMcpPromptMessages(await connection.getPrompt('greet', { name: 'Ada', style: 'warm' }))).toBe('Say hello to Ada in a warm way.')
    expect(readMcpPromptMessages(await connection.getPrompt('mixed', {}))).toBe('Look at this.\n\n[Image: image/png, not attached]\n\nAssistant: [Resource note://shopping (text/plain)]\nMilk, eggs, bread.')
    await expect(connection.getPrompt('greet', {})).rejects.toThrow('greet needs a name')
  })

  it('skip bad names, duplicates and listings past the limit', () => {
    const listed = [{ name: 'ok' }, { name: 'ok' }, { name: 'bad\nname' }, { name: 42 }, null, ...Array.from({ length: 200 }, (_, index) => ({ name: `p${index}` }))]
    const prompts = checkMcpPrompts(listed, 'srv', new Set(['srv__ok']))
    expect(prompts[0]).toMatchObject({ name: 'srv__ok_2', mcpName: 'ok' })
    expect(prompts).toHaveLength(MAX_MCP_PROMPTS)
    expect(readMcpPromptMessages({ messages: 'nope' })).toBe('')
    expect(readMcpPromptMessages({ messages: [{ role: 'user', content: { type: 'text', text: 'x'.repeat(200_000) } }] })).toMatch(/\[The prompt was cut at 100000 characters\.\]$/)
  })
})

describe('an MCP server\'s resources', () => {
  it('are listed and read into a text file to attach', async () => {
    const connection = await connect()
    const resources = checkMcpResources(await connection.listResources())
    expect(resources).toEqual([
      { uri: 'note://shopping', label: 'Shopping list', mimeType: 'text/plain' },
      { uri: 'doc://guide', label: 'guide.md', description: 'How to use the test server.', mimeType: 'text/markdown' },
      { uri: 'bin://logo', label: 'logo', mimeType: 'image/png' },
    ])
    expect(readMcpResourceText(resources[0]!, await connection.readResource('note://shopping'))).toEqual({ fileName: 'Shopping list.txt', mimeType: 'text/plain', text: 'Milk, eggs, bread.' })
    expect(readMcpResourceText(resources[1]!, await connection.readResource('doc://guide'))).toEqual({ fileName: 'guide.md', mimeType: 'text/markdown', text: '# Guide\n\nAsk the test server anything.' })
    expect(() => readMcpResourceText(resources[2]!, { contents: [{ uri: 'bin://logo', mimeType: 'image/png', blob: 'AAAA' }] })).toThrow('logo has no text to attach (only binary content).')
  })

  it('name binary parts, cut long text and drop unusable entries', () => {
    const read = readMcpResourceText({ uri: 'x://a', label: 'a/b' }, { contents: [{ text: 'y'.repeat(MAX_MCP_RESOURCE_TEXT_CHARS + 5) }, { uri: 'x://img', mimeType: 'image/png', blob: 'AAAA' }] })
    expect(read.fileName).toBe('a_b.txt')
    expect(read.text).toMatch(/\[Cut at 1048576 characters\.\]$/)
    expect(readMcpResourceText({ uri: 'x://a', label: 'a' }, { contents: [{ text: 'hi' }, { uri: 'x://img', mimeType: 'image/png', blob: 'AAAA' }] }).text).toBe('hi\n\n[Binary content x://img (image/png, 3 bytes) not attached]')
    expect(checkMcpResources([{ uri: 'not a uri' }, { uri: 'a://1' }, { uri: 'a://1' }, 'x', { uri: 'a://2', size: -1, name: '  ' }])).toEqual([{ uri: 'a://1', label: 'a://1' }, { uri: 'a://2', label: 'a://2' }])
  })
})
