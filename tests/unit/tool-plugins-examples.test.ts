import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ToolExecutionContext } from '#shared/tools/tool-types'
import calculate from '~~/plugins/calculate'
import getCurrentTime from '~~/plugins/get-current-time'
import getWeather from '~~/plugins/get-weather'

function context(signal = new AbortController().signal): ToolExecutionContext {
  return { signal, threadId: 'thread-1', callId: 'call-1', status: () => {}, settings: {} }
}

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('calculate', () => {
  it.each([
    ['2^10 / 4', '256'],
    ['sqrt(16) + 1', '5'],
    ['5 km to mi', '3.1068559611867 mi'],
    ['100 degF to degC', '37.777777777778 degC'],
    ['0.1 + 0.2', '0.3'],
  ])('evaluates %s to %s', async (expression, expected) => {
    expect(await calculate.handler({ expression }, context())).toBe(expected)
  })

  it.each(['import({}, {})', 'evaluate("1+1")', 'parse("1+1")', 'createUnit("foo")', 'simplify("x+x")', 'derivative("x^2", "x")'])(
    'refuses %s as the security guide advises',
    async (expression) => {
      await expect(calculate.handler({ expression }, context())).rejects.toThrow(/is disabled/)
    },
  )

  it('explains an expression it cannot evaluate', async () => {
    await expect(calculate.handler({ expression: '2 +* 3' }, context())).rejects.toThrow(/^Cannot evaluate "2 \+\* 3": /)
    await expect(calculate.handler({ expression: '  ' }, context())).rejects.toThrow('The expression is empty.')
    await expect(calculate.handler({ expression: '1+'.repeat(300) + '1' }, context())).rejects.toThrow('longer than 500 characters')
  })
})

describe('get_current_time', () => {
  it('tells the time in a named time zone with its offset', async () => {
    vi.useFakeTimers({ now: new Date('2025-01-15T12:34:56Z') })
    const result = await getCurrentTime.handler({ timezone: 'Asia/Kolkata' }, context()) as Record<string, string>
    expect(result).toMatchObject({ timezone: 'Asia/Kolkata', local: '2025-01-15T18:04:56+05:30', weekday: 'Wednesday', utcOffset: '+05:30', utc: '2025-01-15T12:34:56.000Z' })
    expect(result.readable).toContain('January 15, 2025')
  })

  it('uses +00:00 for UTC and the user\'s zone when none is given', async () => {
    vi.useFakeTimers({ now: new Date('2025-07-01T00:00:00Z') })
    expect(await getCurrentTime.handler({ timezone: 'UTC' }, context())).toMatchObject({ local: '2025-07-01T00:00:00+00:00' })
    expect(await getCurrentTime.handler({}, context())).toMatchObject({ timezone: Intl.DateTimeFormat().resolvedOptions().timeZone })
  })

  it('names an unknown time zone in its error', async () => {
    await expect(async () => getCurrentTime.handler({ timezone: 'Mars/Olympus_Mons' }, context()))
      .rejects.toThrow('Unknown time zone "Mars/Olympus_Mons". Use an IANA name such as "Europe/Paris"')
  })
})

describe('get_weather', () => {
  it('is disabled until the user switches it on', () => {
    expect(getWeather.definition.defaultEnabled).toBe(false)
  })

  it('geocodes the city, then reads the current weather and the next days, passing the abort signal', async () => {
    const signal = new AbortController().signal
    const fetchMock = vi.fn(async (url: string) => new Response(JSON.stringify(url.includes('geocoding')
      ? { results: [{ name: 'Lisbon', country: 'Portugal', latitude: 38.7, longitude: -9.1 }] }
      : {
          current: { time: '2025-01-01T12:00', temperature_2m: 15.2, apparent_temperature: 14, relative_humidity_2m: 70, wind_speed_10m: 12, weather_code: 2 },
          // the second day lacks its low: left out rather than shown half
          daily: { time: ['2025-01-01', '2025-01-02'], temperature_2m_max: [17, 18], temperature_2m_min: [9, null], weather_code: [2, 61] },
        })))
    vi.stubGlobal('fetch', fetchMock)
    const result = await getWeather.handler({ city: 'Lisbon' }, context(signal))
    expect(result).toEqual({ location: 'Lisbon, Portugal', time: '2025-01-01T12:00', temperatureC: 15.2, feelsLikeC: 14, humidityPercent: 70, windKmh: 12, conditions: 'partly cloudy', forecast: [{ date: '2025-01-01', highC: 17, lowC: 9, conditions: 'partly cloudy' }] })
    expect(fetchMock.mock.calls[1]![0]).toContain('latitude=38.7&longitude=-9.1')
    expect(fetchMock.mock.calls.every(call => (call as unknown[])[1] && ((call as unknown[])[1] as RequestInit).signal === signal)).toBe(true)
  })

  it('reports network failures clearly', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('fetch failed') }))
    await expect(getWeather.handler({ city: 'Paris' }, context())).rejects.toThrow('Could not reach Open-Meteo: fetch failed')
    vi.stubGlobal('fetch', vi.fn(async () => new Response('busy', { status: 503, statusText: 'Service Unavailable' })))
    await expect(getWeather.handler({ city: 'Paris' }, context())).rejects.toThrow('Could not reach Open-Meteo: HTTP 503 Service Unavailable')
  })

  it('says so when no place has that name', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}')))
    await expect(getWeather.handler({ city: 'Nowhereville' }, context())).rejects.toThrow('No place named "Nowhereville" was found.')
  })
})
