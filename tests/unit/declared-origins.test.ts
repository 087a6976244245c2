import { readdir } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { defineTool, isToolPlugin } from '#shared/tools/definition/define-tool'
import { normalizeToolDefinition } from '#shared/tools/definition/tool-definition-validation'
import { parseConnectOriginOverrides, withOriginOverrides } from '#shared/security/declared-origins'
import { createToolFetch, setConnectOriginOverrides } from '#shared/tools/tool-fetch'
import { buildContentSecurityPolicy } from '~~/server/utils/security/content-security-policy'
import { declaredConnectOrigins, pluginConnectOrigins } from '~~/server/utils/security/declared-connect-origins'

const PLUGINS = new URL('../../plugins/', import.meta.url)

function connectSrc(policy: string): string[] {
  return policy.split('; ').find(directive => directive.startsWith('connect-src '))!.split(' ').slice(1)
}

function tool(connects: unknown) {
  return () => defineTool({ name: 'reach_out', connects: connects as string[], handler: () => 'ok' })
}

describe('a plugin declares the origins it connects to', () => {
  it('keeps plain https origins, once each', () => {
    const plugin = defineTool({ name: 'reach_out', connects: ['https://api.example.com', 'https://api.example.com:8443', 'https://api.example.com'], handler: () => 'ok' })
    expect(normalizeToolDefinition(plugin.definition).connects).toEqual(['https://api.example.com', 'https://api.example.com:8443'])
    expect(normalizeToolDefinition(defineTool({ name: 'stay_home', handler: () => 'ok' }).definition).connects).toEqual([])
  })

  it.each([
    ['http://api.example.com', 'Tool "reach_out": connects[0] must be an https origin (got "http://api.example.com")'],
    ['https://api.example.com/v1', 'connects[0] must be an origin alone, "https://api.example.com", without path, query or trailing slash (got "https://api.example.com/v1")'],
    ['https://api.example.com/', 'without path, query or trailing slash (got "https://api.example.com/")'],
    ['https://*.example.com', 'connects[0] must name one host, not a wildcard (got "https://*.example.com")'],
    ['api.example.com', 'connects[0] must be an origin like "https://api.example.com" (got "api.example.com")'],
    ['https://API.example.com', 'must be an origin alone, "https://api.example.com"'],
    [42, 'connects[0] must be a string (got number)'],
  ])('refuses %j with a message that says what to write', (origin, message) => {
    expect(tool([origin])).toThrow(message)
  })

  it('refuses a list that is not an array or names more than 8 origins', () => {
    expect(tool('https://api.example.com')).toThrow('Tool "reach_out": connects must be an array of origins (got string)')
    const nine = Array.from({ length: 9 }, (_, index) => `https://api${index}.example.com`)
    expect(tool(nine)).toThrow('connects may list at most 8 origins (got 9)')
  })
})

describe('the page\'s policy is built from the plugins\' declarations', () => {
  it('allows every origin a file in plugins/ declares (run `npm run registry:flash` after changing `connects`)', async () => {
    const policy = connectSrc(buildContentSecurityPolicy({ declaredOrigins: pluginConnectOrigins('') }))
    const files = (await readdir(PLUGINS)).filter(file => file.endsWith('.ts') && !file.startsWith('_'))
    const declared: string[] = []
    for (const file of files) {
      const plugin = ((await import(new URL(file, PLUGINS).href)) as { default: unknown }).default
      if (isToolPlugin(plugin)) declared.push(...normalizeToolDefinition(plugin.definition).connects)
    }
    expect(declared).toContain('https://api.open-meteo.com')
    expect(declared.filter(origin => !policy.includes(origin))).toEqual([])
  })

  it('allows nothing else: the app, OpenRouter, the declared origins, then the user\'s endpoints', () => {
    expect(connectSrc(buildContentSecurityPolicy({ declaredOrigins: ['https://api.example.com'], connectOrigins: ['http://localhost:11434'] })))
      .toEqual(['\'self\'', 'https://openrouter.ai', 'https://api.example.com', 'http://localhost:11434'])
  })

  it('reads the declarations again from the generated file, dropping anything that is not an https origin', () => {
    expect(declaredConnectOrigins([
      { metadata: { connects: ['https://a.example.com', 'https://a.example.com', 'http://b.example.com', 'https://c.example.com; script-src *'] } },
      { metadata: {} },
      { metadata: { connects: 'https://d.example.com' } },
    ])).toEqual(['https://a.example.com'])
  })

  it('puts the operator\'s override in place of a declared origin', () => {
    const overrides = parseConnectOriginOverrides('https://api.open-meteo.com=http://127.0.0.1:3713, nonsense, https://x.example.com=*, https://y.example.com=http://y.test;')
    expect([...overrides]).toEqual([['https://api.open-meteo.com', 'http://127.0.0.1:3713']])
    expect(withOriginOverrides(['https://api.open-meteo.com', 'https://geocoding-api.open-meteo.com'], overrides))
      .toEqual(['http://127.0.0.1:3713', 'https://geocoding-api.open-meteo.com'])
    expect(pluginConnectOrigins('https://api.open-meteo.com=http://127.0.0.1:3713')).toContain('http://127.0.0.1:3713')
    expect(pluginConnectOrigins('https://api.open-meteo.com=http://127.0.0.1:3713')).not.toContain('https://api.open-meteo.com')
  })
})

describe('context.fetch', () => {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(request.url ?? '')
    response.end('fine')
  })
  let origin = ''
  beforeAll(async () => {
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise(resolve => server.close(resolve)))
  afterEach(() => setConnectOriginOverrides(new Map()))

  it('sends a request for a declared origin to the operator\'s override, path and query kept', async () => {
    setConnectOriginOverrides(parseConnectOriginOverrides(`https://api.example.com=${origin}`))
    const response = await createToolFetch()('https://api.example.com/v1/forecast?latitude=1')
    expect(await response.text()).toBe('fine')
    expect(requests.at(-1)).toBe('/v1/forecast?latitude=1')
  })

  it('passes the call\'s signal, so Stop ends the request', async () => {
    const controller = new AbortController()
    controller.abort(new Error('Stopped'))
    await expect(createToolFetch(controller.signal)(`${origin}/slow`)).rejects.toThrow('Stopped')
  })

  it('keeps the network\'s own error where no page policy applies', async () => {
    const closed = createServer()
    await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise(resolve => closed.close(resolve))
    await expect(createToolFetch()(`http://127.0.0.1:${port}/`)).rejects.toThrow(TypeError)
  })
})
