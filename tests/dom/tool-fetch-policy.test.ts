import { afterEach, describe, expect, it, vi } from 'vitest'
import { ConnectBlockedError } from '#shared/errors/connect-blocked-error'
import { createToolFetch } from '#shared/tools/tool-fetch'
import getWeather from '~~/plugins/get-weather'

/** What Chromium does when the page's connect-src refuses a fetch: a bare TypeError, then a violation event. */
function refuseLikeThePolicy(blockedOrigin: string) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    setTimeout(() => {
      const event = Object.assign(new Event('securitypolicyviolation', { bubbles: true }), {
        effectiveDirective: 'connect-src', blockedURI: url,
      })
      document.dispatchEvent(event)
    })
    if (new URL(url).origin === blockedOrigin) throw new TypeError('Failed to fetch')
    return new Response('{}')
  }))
}

afterEach(() => vi.unstubAllGlobals())

describe('a fetch the page\'s policy refuses', () => {
  it('says which origin is not declared instead of "Failed to fetch"', async () => {
    refuseLikeThePolicy('https://undeclared.example.com')
    const error = await createToolFetch()('https://undeclared.example.com/data').catch(caught => caught)
    expect(ConnectBlockedError.isInstance(error)).toBe(true)
    expect(error.message).toBe('blocked by this page\'s security policy: https://undeclared.example.com is not declared')
    expect(error.cause).toBeInstanceOf(TypeError)
  })

  it('is refused again without a request, since the page keeps its policy', async () => {
    refuseLikeThePolicy('https://undeclared.example.com')
    await expect(createToolFetch()('https://undeclared.example.com/again')).rejects.toThrow('is not declared')
    expect(fetch).not.toHaveBeenCalled()
  })

  it('reaches the Weather card as Open-Meteo being blocked, not the network failing', async () => {
    refuseLikeThePolicy('https://geocoding-api.open-meteo.com')
    const context = { signal: new AbortController().signal, threadId: 't', callId: 'c', status: () => {}, settings: {} }
    await expect(getWeather.handler({ city: 'Lisbon' }, context))
      .rejects.toThrow('Could not reach Open-Meteo: blocked by this page\'s security policy: https://geocoding-api.open-meteo.com is not declared')
  })

  it('keeps the network\'s own message when no violation names the origin', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('Failed to fetch') }))
    vi.useFakeTimers()
    const failing = createToolFetch()('https://offline.example.com/').catch(caught => caught)
    await vi.runAllTimersAsync()
    vi.useRealTimers()
    expect(await failing).toMatchObject({ name: 'TypeError', message: 'Failed to fetch' })
  })
})
