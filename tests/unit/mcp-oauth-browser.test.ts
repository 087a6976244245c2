// The browser's keeping of MCP sign-ins: one localStorage record per server (read defensively), the Web Lock a
// refresh holds, and the client metadata URL that is offered only where client ID metadata documents are allowed.
import { describe, expect, it } from 'vitest'
import { appClientMetadataUrl, createServerLock, createStorageOAuthStore, forgetMcpSignIn, mcpOAuthStorageKey } from '~/utils/chat/mcp/mcp-oauth-browser'
import { readSignInAnswer, readSignInMessage } from '#shared/mcp/oauth/mcp-sign-in-answer'

function memoryStorage() {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
}

describe('a server\'s stored sign-in', () => {
  it('is kept under its own key, read back, and removed when empty or forgotten', () => {
    const storage = memoryStorage()
    const store = createStorageOAuthStore(storage, 'one')
    store.write({ tokens: { access_token: 'a', token_type: 'bearer' }, state: 's' })
    expect(JSON.parse(storage.items.get(mcpOAuthStorageKey('one'))!)).toMatchObject({ state: 's' })
    expect(createStorageOAuthStore(storage, 'one').read()).toEqual({ tokens: { access_token: 'a', token_type: 'bearer' }, state: 's' })
    expect(createStorageOAuthStore(storage, 'two').read()).toEqual({})
    store.write({})
    expect(storage.items.size).toBe(0)
    store.write({ state: 'x' })
    forgetMcpSignIn(storage, 'one')
    expect(storage.items.size).toBe(0)
  })

  it('counts a record that is not JSON, or not a record, as none', () => {
    const storage = memoryStorage()
    storage.setItem(mcpOAuthStorageKey('one'), '{ not json')
    expect(createStorageOAuthStore(storage, 'one').read()).toEqual({})
    storage.setItem(mcpOAuthStorageKey('one'), '[1,2]')
    expect(createStorageOAuthStore(storage, 'one').read()).toEqual({})
  })
})

describe('the server lock', () => {
  it('asks the Web Lock manager for an exclusive lock named after the server', async () => {
    const asked: Array<{ name: string, mode?: string }> = []
    const locks = { request: (name: string, options: LockOptions, task: () => Promise<unknown>) => (asked.push({ name, mode: options.mode }), task()) } as unknown as LockManager
    expect(await createServerLock('abc', locks)(async () => 42)).toBe(42)
    expect(asked).toEqual([{ name: 'plugboard:mcp-oauth:abc', mode: 'exclusive' }])
  })

  it('runs tasks one at a time without Web Locks', async () => {
    const lock = createServerLock('abc', undefined)
    const order: string[] = []
    let release!: () => void
    const first = lock(() => new Promise<void>((resolve) => {
      order.push('first starts')
      release = () => {
        order.push('first ends')
        resolve()
      }
    }))
    const second = lock(async () => void order.push('second starts'))
    await Promise.resolve()
    release()
    await Promise.all([first, second])
    expect(order).toEqual(['first starts', 'first ends', 'second starts'])
  })
})

describe('the sign-in answer', () => {
  it('is read from the callback query and from a message, each field a bounded string', () => {
    expect(readSignInAnswer(new URLSearchParams('code=c&state=s'))).toEqual({ code: 'c', state: 's', error: undefined, errorDescription: undefined })
    expect(readSignInMessage({ code: 'c', state: 5, error: 'x'.repeat(5000) })).toEqual({ code: 'c', state: undefined, error: undefined, errorDescription: undefined })
    expect(readSignInMessage('nope')).toBeUndefined()
  })
})

describe('the client metadata document URL', () => {
  it('is offered over https only (client ID metadata documents require it); over http the app registers instead', () => {
    expect(appClientMetadataUrl('https://chat.example')).toBe('https://chat.example/oauth/client-metadata.json')
    expect(appClientMetadataUrl('http://127.0.0.1:3000')).toBeUndefined()
  })
})
