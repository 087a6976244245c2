// An MCP App's `ui/open-link`: only http and https links reach the user's confirmation (which names the origin);
// script, data, file and credential-carrying links are refused before anything is shown.
import { describe, expect, it, vi } from 'vitest'
import { App } from '@modelcontextprotocol/ext-apps'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { checkMcpAppLink, MAX_APP_LINK_CHARS } from '~/utils/chat/mcp-apps/mcp-app-link'
import { createMcpAppHost } from '~/utils/chat/mcp-apps/mcp-app-host'

describe('a link an MCP App asks to open', () => {
  it('is offered with its origin when it is http or https', () => {
    expect(checkMcpAppLink('https://example.com/docs?q=1')).toEqual({ ok: true, url: 'https://example.com/docs?q=1', origin: 'https://example.com' })
    expect(checkMcpAppLink('http://127.0.0.1:8080/')).toMatchObject({ ok: true, origin: 'http://127.0.0.1:8080' })
  })

  it('is refused when hostile or malformed', () => {
    for (const url of ['javascript:alert(document.domain)', ' JavaScript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'file:///etc/passwd', 'blob:https://example.com/x', 'https://user:secret@example.com/', 'not a url', '', 42, `https://example.com/${'a'.repeat(MAX_APP_LINK_CHARS)}`]) {
      expect(checkMcpAppLink(url), String(url).slice(0, 40)).toMatchObject({ ok: false })
    }
  })

  it('reaches the host\'s confirmation through the bridge, and a refusal is an error the app reads', async () => {
    const openLink = vi.fn(async (url: string) => url.startsWith('https:'))
    const [hostSide, appSide] = InMemoryTransport.createLinkedPair()
    const host = createMcpAppHost({
      record: { toolName: 't', serverName: 's', uri: 'ui://t', html: '', csp: { connectDomains: [], resourceDomains: [] } },
      transport: hostSide, hostContext: {}, callTool: async () => ({ content: [] }), sendMessage: async () => true,
      updateModelContext: () => {}, onSize: () => {}, onDisplayMode: mode => mode, openLink,
    })
    await host.connect()
    const app = new App({ name: 'linker', version: '1.0.0' }, {}, { autoResize: false })
    await app.connect(appSide)
    await expect(app.openLink({ url: 'https://example.com/docs' })).resolves.not.toHaveProperty('isError')
    await expect(app.openLink({ url: 'javascript:alert(1)' })).resolves.toMatchObject({ isError: true })
    expect(openLink).toHaveBeenCalledTimes(2)
    await host.close()
  })
})
