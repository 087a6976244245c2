// MCP Apps, the host's checks of what a server declares: a tool's `_meta.ui`, its HTML resource, the domains of
// its `ui.csp` and the sandbox page's policy built from them, the sandbox origin; and the connection reading the
// resource of a real MCP server.
import { afterEach, describe, expect, it } from 'vitest'
import { buildMcpAppSandboxCsp, checkCspDomains, MAX_MCP_APP_CSP_DOMAINS, readMcpAppCsp } from '#shared/mcp/apps/mcp-app-csp'
import { MAX_MCP_APP_HTML_CHARS, McpAppResourceError, readMcpAppResource } from '#shared/mcp/apps/mcp-app-resource'
import { mcpAppSandboxOrigin } from '#shared/mcp/apps/mcp-app-sandbox-origin'
import { readMcpAppToolUi, visibleToApp, visibleToModel } from '#shared/mcp/apps/mcp-app-tool-ui'
import { createMcpConnection } from '#shared/mcp/mcp-connection'
import { checkMcpTools } from '#shared/mcp/mcp-tool-list'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'

function directives(policy: string): Map<string, string> {
  return new Map(policy.split('; ').map((part) => {
    const [name, ...values] = part.split(' ')
    return [name!, values.join(' ')]
  }))
}

describe('a tool\'s interface (_meta.ui)', () => {
  it('reads the resource URI and the visibility, defaulting to both', () => {
    expect(readMcpAppToolUi({ _meta: { ui: { resourceUri: 'ui://a/app.html' } } })).toEqual({ resourceUri: 'ui://a/app.html', visibility: ['model', 'app'] })
    expect(readMcpAppToolUi({ _meta: { 'ui/resourceUri': 'ui://old/app.html' } })).toEqual({ resourceUri: 'ui://old/app.html', visibility: ['model', 'app'] })
    expect(readMcpAppToolUi({ _meta: { ui: { visibility: ['app', 'robot', 'app'] } } })).toEqual({ visibility: ['app'] })
    expect(readMcpAppToolUi({ name: 'plain' })).toBeUndefined()
  })

  it('ignores a URI that is not ui:// or is too long', () => {
    expect(readMcpAppToolUi({ _meta: { ui: { resourceUri: 'https://evil.example/app.html' } } })?.resourceUri).toBeUndefined()
    expect(readMcpAppToolUi({ _meta: { ui: { resourceUri: `ui://${'a'.repeat(600)}` } } })?.resourceUri).toBeUndefined()
  })

  it('keeps model-only tools from the app and app-only tools from the model', () => {
    expect(visibleToModel({ visibility: ['app'] })).toBe(false)
    expect(visibleToApp({ visibility: ['app'] })).toBe(true)
    expect(visibleToApp({ visibility: ['model'] })).toBe(false)
    expect(visibleToApp(undefined)).toBe(true)
  })

  it('survives the tool list check (checkMcpTools keeps _meta.ui)', () => {
    const { tools } = checkMcpTools([{ name: 'show', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://x/y' } } }], 'srv')
    expect(tools[0]?.ui).toEqual({ resourceUri: 'ui://x/y', visibility: ['model', 'app'] })
  })
})

describe('an app\'s declared domains and the sandbox policy', () => {
  it('keeps https origins (with a *. subdomain) and loopback http, drops anything else', () => {
    expect(checkCspDomains(['https://api.example.com', 'https://*.cdn.example.com/', 'HTTPS://UP.EXAMPLE.COM', 'http://localhost:8080', 'http://evil.example', 'https://a.example; script-src *', `'unsafe-eval'`, '*', 'https://a.example b.example', 42]))
      .toEqual(['https://api.example.com', 'https://*.cdn.example.com', 'https://up.example.com', 'http://localhost:8080'])
  })

  it('keeps at most the first few domains of a list', () => {
    const many = Array.from({ length: 40 }, (_, index) => `https://d${index}.example`)
    expect(checkCspDomains(many)).toHaveLength(MAX_MCP_APP_CSP_DOMAINS)
  })

  it('allows inline code and the declared domains only: nothing undeclared is reachable', () => {
    const policy = directives(buildMcpAppSandboxCsp(readMcpAppCsp({ connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] }), 'http://127.0.0.1:3000'))
    expect(policy.get('default-src')).toBe(`'none'`)
    expect(policy.get('connect-src')).toBe('https://api.example.com')
    expect(policy.get('script-src')).toBe(`'unsafe-inline' https://cdn.example.com`)
    expect(policy.get('img-src')).toBe('data: blob: https://cdn.example.com')
    expect(policy.get('frame-ancestors')).toBe('http://127.0.0.1:3000')
    expect(policy.get('form-action')).toBe(`'none'`)
    expect(policy.get('script-src')).not.toContain('unsafe-eval')
  })

  it('allows no connection at all when the app declares none', () => {
    const policy = directives(buildMcpAppSandboxCsp(readMcpAppCsp(undefined), 'http://localhost:3000'))
    expect(policy.get('connect-src')).toBe(`'none'`)
    expect(policy.get('script-src')).toBe(`'unsafe-inline'`)
  })
})

describe('an app\'s HTML resource', () => {
  const uri = 'ui://a/app.html'
  it('reads text or base64 HTML with its declared domains', () => {
    const read = readMcpAppResource({ contents: [{ uri, mimeType: 'text/html;profile=mcp-app', text: '<p>hi</p>', _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true } } }] }, uri)
    expect(read).toEqual({ uri, html: '<p>hi</p>', csp: { connectDomains: ['https://api.example.com'], resourceDomains: [] }, prefersBorder: true })
    const blob = Buffer.from('<p>é</p>', 'utf8').toString('base64')
    expect(readMcpAppResource({ contents: [{ uri, mimeType: 'text/html', blob }] }, uri).html).toBe('<p>é</p>')
  })

  it('keeps the browser permissions the app asks for, known names only, so the card can name them', () => {
    const asked = { camera: {}, clipboardWrite: {}, geolocation: {}, usb: {}, microphone: {} }
    const read = readMcpAppResource({ contents: [{ uri, mimeType: 'text/html', text: '<p/>', _meta: { ui: { permissions: asked } } }] }, uri)
    expect(read.permissionsAsked).toEqual(['camera', 'microphone', 'geolocation', 'clipboardWrite'])
    expect(readMcpAppResource({ contents: [{ uri, mimeType: 'text/html', text: '<p/>', _meta: { ui: { permissions: ['camera'] } } }] }, uri)).not.toHaveProperty('permissionsAsked')
  })

  it('refuses what cannot be shown, saying why', () => {
    expect(() => readMcpAppResource({ contents: [] }, uri)).toThrow(/no content/)
    expect(() => readMcpAppResource({ contents: [{ uri, mimeType: 'image/svg+xml', text: '<svg/>' }] }, uri)).toThrow(/not text\/html;profile=mcp-app/)
    expect(() => readMcpAppResource({ contents: [{ uri, mimeType: 'text/html', text: 'x'.repeat(MAX_MCP_APP_HTML_CHARS + 1) }] }, uri)).toThrow(McpAppResourceError)
    expect(() => readMcpAppResource('nonsense', uri)).toThrow(McpAppResourceError)
  })
})

describe('the sandbox origin', () => {
  it('is the other loopback name on the same port, or the configured origin, never the page\'s own', () => {
    expect(mcpAppSandboxOrigin('http://127.0.0.1:3000')).toBe('http://localhost:3000')
    expect(mcpAppSandboxOrigin('http://localhost:3000')).toBe('http://127.0.0.1:3000')
    expect(mcpAppSandboxOrigin('https://chat.example.com')).toBeUndefined()
    expect(mcpAppSandboxOrigin('https://chat.example.com', 'https://apps.example-sandbox.com/')).toBe('https://apps.example-sandbox.com')
    expect(mcpAppSandboxOrigin('https://chat.example.com', 'https://chat.example.com')).toBeUndefined()
    expect(mcpAppSandboxOrigin('https://chat.example.com', 'javascript:alert(1)')).toBeUndefined()
  })
})

describe('a real MCP server with apps', () => {
  const cleanup: Array<() => Promise<unknown>> = []
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step()
  })

  it('lists its tools with their interfaces and serves the HTML through the connection', async () => {
    const server = await startMcpTestServer({ apps: true })
    cleanup.push(() => server.close())
    const connection = createMcpConnection({ url: server.url, prefix: 'apps', requestTimeoutMs: 5_000 })
    cleanup.push(() => connection.close())
    await connection.connect()
    const byName = new Map(connection.state.tools.map(tool => [tool.mcpName, tool]))
    expect(byName.get('show_counter')?.ui?.resourceUri).toBe('ui://counter/app.html')
    expect(byName.get('increment')?.ui?.visibility).toEqual(['app'])
    const resource = readMcpAppResource(await connection.readResource('ui://counter/app.html'), 'ui://counter/app.html')
    expect(resource.html).toContain('Counter app')
    expect(resource.prefersBorder).toBe(true)
    await expect(connection.readResource('ui://missing/app.html')).rejects.toThrow(/no resource/)
  })
})
