// A local stand-in for Open-Meteo's geocoding and forecast APIs (the answers' shape as Open-Meteo documents it),
// with CORS as the real one has, recording the paths it was asked for.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeOpenMeteo {
  origin: string
  requests: string[]
  close: () => Promise<void>
}

export async function startFakeOpenMeteo(): Promise<FakeOpenMeteo> {
  const requests: string[] = []
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake')
    requests.push(url.pathname + url.search)
    response.setHeader('access-control-allow-origin', '*')
    response.setHeader('content-type', 'application/json')
    if (url.pathname === '/v1/search') {
      const name = url.searchParams.get('name') ?? ''
      return void response.end(JSON.stringify(name.toLowerCase() === 'lisbon'
        ? { results: [{ name: 'Lisbon', latitude: 38.72, longitude: -9.13, country: 'Portugal', admin1: 'Lisbon' }] }
        : {}))
    }
    if (url.pathname === '/v1/forecast') {
      return void response.end(JSON.stringify({
        current: { time: '2026-06-01T12:00', temperature_2m: 23.4, apparent_temperature: 24.1, relative_humidity_2m: 55, weather_code: 1, wind_speed_10m: 14.2 },
      }))
    }
    response.statusCode = 404
    response.end('{"error":true,"reason":"Not Found"}')
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}
