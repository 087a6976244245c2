// An MCP tool with an interface, through the browser's MCP manager and a real MCP server: the model is offered the
// tools it may see (not the app-only ones), and a call's app (HTML, input, result) is kept in memory for the card
// at once and on the call's tool row for a reload. What an app tells the model reaches the chat's next request.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import { createMcpServerManager } from '~/utils/chat/mcp/mcp-server-manager'
import { mcpAppOfCall } from '~/utils/chat/mcp-apps/mcp-app-views'
import { mcpAppModelContextMessage, setMcpAppModelContext } from '~/utils/chat/mcp-apps/mcp-app-model-context'
import { addMessage, getMessage } from '~/db/messages'
import { createThread } from '~/db/threads'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import { useFreshDatabase } from './helpers/fresh-database'

useFreshDatabase('mcp-app-record-test')

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

describe('an MCP tool with an interface', () => {
  it('is offered to the model unless it is for the app alone, and keeps its call\'s app on the tool row', async () => {
    const mcp = await startMcpTestServer({ apps: true })
    cleanup.push(() => mcp.close())
    // the page's CSP lists the server (as after connect-permission's reload), so the browser reaches it directly
    document.cookie = `plugboard-connect=${encodeURIComponent(new URL(mcp.url).origin)}; Path=/`
    const registry = createToolRegistry()
    const manager = createMcpServerManager({ registry, storage: null, createId: () => 'apps' })
    cleanup.push(() => manager.remove('apps'))
    manager.add({ name: 'Apps', url: mcp.url })
    await vi.waitFor(() => expect(registry.getTool('apps__show_counter')).toBeDefined(), { timeout: 10_000 })
    expect(registry.getTool('apps__increment')).toBeUndefined()
    expect(registry.getTool('apps__secret_admin')).toBeDefined()

    const thread = await createThread()
    const row = await addMessage({ threadId: thread.id, role: 'tool', content: '', status: 'pending', toolCallId: 'call-1', toolName: 'apps__show_counter', toolStatus: 'running' })
    const context = { signal: new AbortController().signal, threadId: thread.id, callId: 'call-1', status: () => {}, settings: {} }
    expect(await registry.getTool('apps__show_counter')!.handler({ label: 'mine' }, context)).toBe('The counter shows 7.')

    await vi.waitFor(() => expect(mcpAppOfCall('call-1')).toBeDefined(), { timeout: 5_000 })
    expect(mcpAppOfCall('call-1')).toMatchObject({ toolName: 'apps__show_counter', serverName: 'Apps', uri: 'ui://counter/app.html', input: { label: 'mine' }, result: { structuredContent: { count: 7 } }, prefersBorder: true })
    await vi.waitFor(async () => expect((await getMessage(row.id))?.mcpApp?.html).toContain('Counter app'), { timeout: 5_000 })
  })
})

describe('what apps tell the model', () => {
  it('goes with the chat\'s next requests as one message, the latest per app, and is cleared by empty text', () => {
    expect(mcpAppModelContextMessage('chat-a')).toBeUndefined()
    setMcpAppModelContext('chat-a', 'call-1', 'apps__show_counter', 'The counter shows 7')
    setMcpAppModelContext('chat-a', 'call-1', 'apps__show_counter', 'The counter shows 8')
    const message = mcpAppModelContextMessage('chat-a')
    expect(message?.role).toBe('user')
    expect(message?.content).toContain('The counter shows 8')
    expect(message?.content).not.toContain('shows 7')
    expect(mcpAppModelContextMessage('chat-b')).toBeUndefined()
    setMcpAppModelContext('chat-a', 'call-1', 'apps__show_counter', '')
    expect(mcpAppModelContextMessage('chat-a')).toBeUndefined()
  })
})
