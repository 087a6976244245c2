import { afterEach, describe, expect, it, vi } from 'vitest'
import { APP_SHELL_CACHE, APP_SHELL_KEY, keepAppShell } from '../../app/utils/pwa/app-shell'

/** A Cache Storage with one cache, as much of it as keepAppShell uses. */
function fakeCaches(initial: Record<string, Response> = {}) {
  const entries = new Map(Object.entries(initial))
  const opened: string[] = []
  const storage = {
    open: async (name: string) => {
      opened.push(name)
      return {
        match: async (key: string) => entries.get(key),
        put: async (key: string, response: Response) => void entries.set(key, response),
      }
    },
  }
  return { storage, entries, opened }
}

afterEach(() => vi.unstubAllGlobals())

describe('keepAppShell', () => {
  it('keeps the page the server sends, with its headers, under one key in the worker\'s cache', async () => {
    const { storage, entries, opened } = fakeCaches()
    vi.stubGlobal('caches', storage)
    const fetchMock = vi.fn(async () => new Response('<html>', { status: 200, headers: { 'content-security-policy': `script-src 'self'` } }))
    vi.stubGlobal('fetch', fetchMock)
    expect(await keepAppShell()).toBe(true)
    expect(opened).toEqual([APP_SHELL_CACHE])
    expect(fetchMock).toHaveBeenCalledWith(APP_SHELL_KEY, { cache: 'no-store', credentials: 'same-origin' })
    expect(entries.get(APP_SHELL_KEY)!.headers.get('content-security-policy')).toBe(`script-src 'self'`)
  })

  it('leaves a page the worker already kept alone, and asks the server nothing', async () => {
    const kept = new Response('kept')
    const { storage, entries } = fakeCaches({ [APP_SHELL_KEY]: kept })
    vi.stubGlobal('caches', storage)
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    expect(await keepAppShell()).toBe(false)
    expect(fetchMock).not.toHaveBeenCalled()
    expect(entries.get(APP_SHELL_KEY)).toBe(kept)
  })

  it('keeps no error page (a 503 from a proxy in front of the app)', async () => {
    const { storage, entries } = fakeCaches()
    vi.stubGlobal('caches', storage)
    vi.stubGlobal('fetch', vi.fn(async () => new Response('down', { status: 503 })))
    expect(await keepAppShell()).toBe(false)
    expect(entries.size).toBe(0)
  })

  it('does nothing where the browser has no Cache Storage', async () => {
    vi.stubGlobal('caches', undefined)
    expect(await keepAppShell()).toBe(false)
  })
})
