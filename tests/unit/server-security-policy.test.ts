import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_CONNECT_ORIGINS, parseConnectOrigins, withConnectOrigin, connectOriginOf } from '#shared/security/connect-origins'
import { applyOpenRouterPolicy, filterModelList, readOpenRouterPolicy } from '~~/server/utils/openrouter-policy'
import { accessPasswordFingerprint, accessPasswordMatches } from '~~/server/utils/security/access-password'
import { buildContentSecurityPolicy, inlineScriptHashes } from '~~/server/utils/security/content-security-policy'
import { resolveSessionPassword } from '~~/server/utils/security/session-secret'

const message = (role: string) => ({ role, content: 'x' })
/** No limits at all: any model, no cap, no paid options. */
const OPEN = { allowedModels: [], maxTokens: 0, allowWebSearch: false, allowProviderRouting: false }

describe('the operator\'s policy on the server key', () => {
  const policy = readOpenRouterPolicy({ openrouterModels: 'openai/gpt-4o-mini, anthropic/claude-3.5-haiku', openrouterMaxTokens: 1000 })

  it('reads the allow-list and the cap from the environment\'s strings', () => {
    expect(policy).toEqual({ allowedModels: ['openai/gpt-4o-mini', 'anthropic/claude-3.5-haiku'], maxTokens: 1000, allowWebSearch: false, allowProviderRouting: false })
    expect(readOpenRouterPolicy({ openrouterModels: '', openrouterMaxTokens: 'lots' })).toEqual(OPEN)
    expect(readOpenRouterPolicy({ openrouterAllowWebSearch: true, openrouterAllowProviderRouting: 'true' })).toMatchObject({ allowWebSearch: true, allowProviderRouting: true })
    expect(readOpenRouterPolicy({ openrouterAllowWebSearch: 'no', openrouterAllowProviderRouting: 0 })).toMatchObject({ allowWebSearch: false, allowProviderRouting: false })
  })

  it.each([
    [{ model: 'openai/o1-pro', messages: [] }, 403, /"openai\/o1-pro" is not allowed/],
    [{ model: 'openai/gpt-4o-mini', models: ['openai/o1-pro'], messages: [] }, 403, /o1-pro/],
    [{ model: 'openai/gpt-4o-mini', models: 'openai/o1-pro', messages: [] }, 403, /o1-pro/],
    [{ model: 'openai/gpt-4o-mini', messages: [], n: 4 }, 400, /n = 1/],
    [{ model: 'openai/gpt-4o-mini' }, 400, /messages array/],
    [{ messages: [] }, 400, /name a model/],
    [[1, 2], 400, /JSON object/],
    [{ model: 'openai/gpt-4o-mini', messages: Array.from({ length: 2001 }, () => message('user')) }, 400, /2001 messages; at most 2000/],
    [{ model: 'openai/gpt-4o-mini', messages: [], tools: Array.from({ length: 129 }, () => ({})) }, 400, /129 tools; at most 128/],
    [{ model: 'openai/gpt-4o-mini', messages: [], tools: 'all' }, 400, /not an array/],
  ])('refuses %j', (body, status, pattern) => {
    expect(() => applyOpenRouterPolicy(body, policy)).toThrow(pattern)
    try {
      applyOpenRouterPolicy(body, policy)
    }
    catch (error) {
      expect((error as { statusCode: number }).statusCode).toBe(status)
    }
  })

  it('lowers every token limit to the cap, and sets one when the request has none', () => {
    const capped = applyOpenRouterPolicy({ model: 'openai/gpt-4o-mini', messages: [], max_tokens: 100_000, max_completion_tokens: 50_000, reasoning: { max_tokens: 9_999, effort: 'high' } }, policy)
    expect(capped).toMatchObject({ max_tokens: 1000, max_completion_tokens: 1000, reasoning: { max_tokens: 1000, effort: 'high' } })
    expect(applyOpenRouterPolicy({ model: 'openai/gpt-4o-mini', messages: [] }, policy).max_tokens).toBe(1000)
    expect(applyOpenRouterPolicy({ model: 'openai/gpt-4o-mini', messages: [], max_tokens: 200 }, policy).max_tokens).toBe(200)
    expect(applyOpenRouterPolicy({ model: 'openai/gpt-4o-mini', messages: [], max_tokens: -5 }, policy).max_tokens).toBe(1000)
  })

  it('leaves a request alone when the operator set no limits', () => {
    const body = { model: 'any/model', messages: [message('user')], max_tokens: 100_000 }
    expect(applyOpenRouterPolicy(body, OPEN)).toEqual(body)
  })

  it('narrows the model list to the allowed models', () => {
    const list = { data: [{ id: 'openai/gpt-4o-mini' }, { id: 'openai/o1-pro' }, 'junk'] }
    expect(filterModelList(list, policy)).toEqual({ data: [{ id: 'openai/gpt-4o-mini' }] })
    expect(filterModelList(list, OPEN)).toBe(list)
  })
})

describe('the page\'s Content-Security-Policy', () => {
  it('allows exactly the page\'s inline scripts by hash, and nothing inline otherwise', () => {
    const html = '<script>a()</script><script type="module" src="/_nuxt/x.js"></script><script id="d" type="application/json">{}</script><script>a()</script>'
    const hashes = inlineScriptHashes(html)
    expect(hashes.slice(0, 2)).toEqual([`'sha256-${createHash('sha256').update('a()').digest('base64')}'`, `'sha256-${createHash('sha256').update('{}').digest('base64')}'`])
    const policy = buildContentSecurityPolicy({ scriptHashes: hashes })
    const scriptSrc = policy.split('; ').find(directive => directive.startsWith('script-src'))!
    const sources = scriptSrc.split(' ').slice(1)
    expect(sources).not.toContain(`'unsafe-inline'`)
    expect(sources).not.toContain(`'unsafe-eval'`)
    // WebAssembly only (the QuickJS sandbox): no other source than the app, wasm and the hashes.
    expect(sources.filter(source => !source.startsWith(`'sha256-`))).toEqual([`'self'`, `'wasm-unsafe-eval'`])
    for (const directive of [`base-uri 'none'`, `form-action 'self'`, `frame-ancestors 'none'`, `object-src 'none'`]) expect(policy).toContain(directive)
  })

  it('connects only to the app, OpenRouter and the endpoints the user configured', () => {
    const policy = buildContentSecurityPolicy({ connectOrigins: ['http://localhost:11434'] })
    expect(policy).toContain(`connect-src 'self' https://openrouter.ai http://localhost:11434;`)
    expect(policy).not.toMatch(/connect-src[^;]*\b(https?:|\*)\s/)
  })

  it.each([
    'https://evil.example; script-src *',
    'https://evil.example script-src',
    '*',
    'https:',
    'javascript:alert(1)',
    '\'unsafe-inline\'',
    'https://a.example/path',
  ])('keeps %j out of the policy', (smuggled) => {
    expect(parseConnectOrigins(encodeURIComponent(`${smuggled},http://localhost:11434`))).toEqual(['http://localhost:11434'])
  })

  it('frames nothing, or the MCP Apps sandbox origin alone', () => {
    expect(buildContentSecurityPolicy()).toContain(`frame-src 'none'`)
    const policy = buildContentSecurityPolicy({ frameOrigins: ['http://localhost:3000'] })
    expect(policy).toContain('frame-src http://localhost:3000;')
    expect(policy).toContain(`frame-ancestors 'none'`)
  })

  it('lists at most a few origins, newest first', () => {
    let cookie = ''
    for (let port = 1; port <= 20; port++) cookie = withConnectOrigin(parseConnectOrigins(cookie), `http://localhost:${port}`)
    const origins = parseConnectOrigins(cookie)
    expect(origins).toHaveLength(MAX_CONNECT_ORIGINS)
    expect(origins[0]).toBe('http://localhost:20')
    expect(connectOriginOf('http://LocalHost:11434/v1/')).toBe('http://localhost:11434')
    expect(connectOriginOf('ftp://x')).toBeUndefined()
  })
})

describe('secrets', () => {
  it('keeps a generated session secret in a file only its owner can read, and reuses it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'plugboard-')), '.data', 'session-password')
    const first = resolveSessionPassword(undefined, file)
    expect(first.length).toBeGreaterThanOrEqual(32)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(resolveSessionPassword('', file)).toBe(first)
    expect(readFileSync(file, 'utf8').trim()).toBe(first)
  })

  it('prefers NUXT_SESSION_PASSWORD and refuses a short one', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'plugboard-')), 'session-password')
    writeFileSync(file, 'x'.repeat(40))
    expect(resolveSessionPassword('y'.repeat(32), file)).toBe('y'.repeat(32))
    expect(() => resolveSessionPassword('short', file)).toThrow(/at least 32 characters/)
  })

  it('compares the access password exactly, and fingerprints it for sessions', () => {
    expect(accessPasswordMatches('open sesame', 'open sesame')).toBe(true)
    for (const guess of ['open sesam', 'open sesame ', '', null, 42, { toString: () => 'open sesame' }]) expect(accessPasswordMatches(guess, 'open sesame')).toBe(false)
    expect(accessPasswordMatches('', '')).toBe(false)
    expect(accessPasswordFingerprint('a')).not.toBe(accessPasswordFingerprint('b'))
    expect(accessPasswordFingerprint('a')).not.toContain('a'.repeat(2))
  })
})
