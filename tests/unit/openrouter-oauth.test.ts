import { describe, expect, it, vi } from 'vitest'
import {
  OPENROUTER_KEYS_URL,
  OpenRouterSignInError,
  PKCE_VERIFIER_STORAGE_KEY,
  base64UrlEncode,
  completeOpenRouterSignIn,
  createCodeChallenge,
  createCodeVerifier,
  startOpenRouterSignIn,
} from '~/utils/chat/provider/openrouter-oauth'

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial))
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  }
}

function jsonResponse(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

describe('PKCE code challenge', () => {
  // RFC 7636 appendix B: the verifier is the base64url of these 32 octets; its S256 challenge is given there.
  const rfcOctets = [116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121]

  it('encodes the RFC 7636 appendix B octets to its verifier', () => {
    expect(base64UrlEncode(new Uint8Array(rfcOctets))).toBe('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')
  })

  it('matches the S256 challenge of RFC 7636 appendix B', async () => {
    expect(await createCodeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')
  })

  it('creates unpadded base64url verifiers of 43 characters that differ each time', () => {
    const first = createCodeVerifier()
    const second = createCodeVerifier()
    expect(first).toMatch(/^[\w-]{43}$/)
    expect(second).not.toBe(first)
  })
})

describe('startOpenRouterSignIn', () => {
  it('stores the verifier and redirects to OpenRouter with its S256 challenge and the callback URL', async () => {
    const storage = memoryStorage()
    const redirect = vi.fn()
    await startOpenRouterSignIn('http://localhost:3000/oauth/callback', { storage, redirect })

    expect(redirect).toHaveBeenCalledOnce()
    const url = new URL(redirect.mock.calls[0]![0] as string)
    expect(url.origin + url.pathname).toBe('https://openrouter.ai/auth')
    expect(url.searchParams.get('callback_url')).toBe('http://localhost:3000/oauth/callback')
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    const verifier = storage.data.get(PKCE_VERIFIER_STORAGE_KEY)!
    expect(url.searchParams.get('code_challenge')).toBe(await createCodeChallenge(verifier))
  })
})

describe('completeOpenRouterSignIn', () => {
  it('posts the code with the stored verifier and returns the key', async () => {
    const storage = memoryStorage({ [PKCE_VERIFIER_STORAGE_KEY]: 'the-verifier' })
    const fetch = vi.fn(async () => jsonResponse({ key: 'sk-or-v1-abc', user_id: 'u1' }))

    const key = await completeOpenRouterSignIn('the-code', { storage, fetch })

    expect(key).toBe('sk-or-v1-abc')
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe(OPENROUTER_KEYS_URL)
    expect(init.method).toBe('POST')
    expect(JSON.parse(init.body as string)).toEqual({ code: 'the-code', code_verifier: 'the-verifier', code_challenge_method: 'S256' })
  })

  it('removes the single-use verifier even when the exchange fails', async () => {
    const storage = memoryStorage({ [PKCE_VERIFIER_STORAGE_KEY]: 'v' })
    const fetch = vi.fn(async () => jsonResponse({ error: { message: 'Invalid code' } }, 400))

    const error = await completeOpenRouterSignIn('c', { storage, fetch }).catch((caught: unknown) => caught)

    expect(error).toBeInstanceOf(OpenRouterSignInError)
    expect(error).toMatchObject({ reason: 'exchange-failed', status: 400 })
    expect((error as Error).message).toContain('Invalid code')
    expect(storage.data.has(PKCE_VERIFIER_STORAGE_KEY)).toBe(false)
  })

  it('reports a missing code without calling OpenRouter', async () => {
    const fetch = vi.fn()
    await expect(completeOpenRouterSignIn(null, { storage: memoryStorage(), fetch })).rejects.toMatchObject({ reason: 'missing-code' })
    expect(fetch).not.toHaveBeenCalled()
  })

  it('reports a sign-in started in another tab (no verifier) without calling OpenRouter', async () => {
    const fetch = vi.fn()
    await expect(completeOpenRouterSignIn('c', { storage: memoryStorage(), fetch })).rejects.toMatchObject({ reason: 'missing-verifier' })
    expect(fetch).not.toHaveBeenCalled()
  })

  it('reports a network failure with the cause attached', async () => {
    const storage = memoryStorage({ [PKCE_VERIFIER_STORAGE_KEY]: 'v' })
    const cause = new TypeError('Failed to fetch')
    const error = await completeOpenRouterSignIn('c', { storage, fetch: async () => { throw cause } }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ reason: 'network', cause })
  })

  it('rejects a success answer that carries no key', async () => {
    const storage = memoryStorage({ [PKCE_VERIFIER_STORAGE_KEY]: 'v' })
    await expect(completeOpenRouterSignIn('c', { storage, fetch: async () => jsonResponse({}) })).rejects.toMatchObject({ reason: 'exchange-failed' })
  })

  it('calls a 403 a refusal', async () => {
    const storage = memoryStorage({ [PKCE_VERIFIER_STORAGE_KEY]: 'v' })
    await expect(completeOpenRouterSignIn('c', { storage, fetch: async () => jsonResponse({ error: 'forbidden' }, 403) })).rejects.toMatchObject({ reason: 'denied', status: 403 })
  })
})
