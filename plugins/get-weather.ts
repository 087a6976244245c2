import { defineTool } from '~/utils/chat/plugin-api'

import type { ToolFetch } from '~/utils/chat/plugin-api'

const GEOCODING_ORIGIN = 'https://geocoding-api.open-meteo.com'
const FORECAST_ORIGIN = 'https://api.open-meteo.com'

/** WMO weather interpretation codes, as Open-Meteo documents them. */
const WEATHER_CODES: Record<number, string> = {
  0: 'clear sky', 1: 'mainly clear', 2: 'partly cloudy', 3: 'overcast', 45: 'fog', 48: 'depositing rime fog',
  51: 'light drizzle', 53: 'drizzle', 55: 'dense drizzle', 56: 'light freezing drizzle', 57: 'freezing drizzle',
  61: 'slight rain', 63: 'rain', 65: 'heavy rain', 66: 'light freezing rain', 67: 'freezing rain',
  71: 'slight snow', 73: 'snow', 75: 'heavy snow', 77: 'snow grains', 80: 'slight rain showers', 81: 'rain showers',
  82: 'violent rain showers', 85: 'slight snow showers', 86: 'heavy snow showers', 95: 'thunderstorm',
  96: 'thunderstorm with slight hail', 99: 'thunderstorm with heavy hail',
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Open-Meteo's JSON, read field by field with fallbacks
async function getJson(fetch: ToolFetch, url: string, signal: AbortSignal): Promise<any> {
  let response: Response
  try {
    response = await fetch(url, { headers: { accept: 'application/json' } })
  }
  catch (error) {
    if (signal.aborted) throw error
    throw new Error(`Could not reach Open-Meteo: ${(error as Error).message}`, { cause: error })
  }
  if (!response.ok) throw new Error(`Could not reach Open-Meteo: HTTP ${response.status} ${response.statusText}`.trim())
  try {
    return await response.json()
  }
  catch (error) {
    throw new Error('Open-Meteo sent an answer that is not JSON.', { cause: error })
  }
}

/** The next days from Open-Meteo's `daily` block (parallel arrays); days with a missing field are left out. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Open-Meteo's JSON, read field by field
function dailyForecast(daily: any, unit: string): Array<Record<string, string | number>> {
  const days: unknown[] = Array.isArray(daily?.time) ? daily.time : []
  return days.flatMap((date, index) => {
    const high = daily.temperature_2m_max?.[index]
    const low = daily.temperature_2m_min?.[index]
    const code = daily.weather_code?.[index]
    if (typeof date !== 'string' || typeof high !== 'number' || typeof low !== 'number') return []
    return [{ date, [`high${unit}`]: high, [`low${unit}`]: low, conditions: WEATHER_CODES[code as number] ?? `weather code ${code}` }]
  })
}

export default defineTool({
  name: 'get_weather',
  description: 'Get the current weather for a city (temperature, feels-like, humidity, wind, conditions), in the units the user chose.',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City name, optionally with country, e.g. "Lisbon" or "Paris, France".' },
    },
    required: ['city'],
    additionalProperties: false,
  } as const,
  icon: 'i-lucide-cloud-sun',
  category: 'Web',
  ui: { label: 'Weather', descriptionHint: 'Current weather from Open-Meteo (needs the network).' },
  // it sends the city to a third party: the user opts in
  defaultEnabled: false,
  // it reaches a third party with what the model wrote: the user says yes to each call unless they choose otherwise
  actsOutsideApp: true,
  timeoutMs: 15_000,
  // the page's security policy lets the browser reach these hosts because they are declared here
  connects: [GEOCODING_ORIGIN, FORECAST_ORIGIN],
  catalog: {
    commandName: 'weather',
    service: 'open-meteo',
    version: '1.1.0',
    settings: {
      units: { type: 'string', label: 'Units', description: 'Metric: °C and km/h. Imperial: °F and mph.', enum: ['metric', 'imperial'], default: 'metric' },
    },
  },
  async handler({ city }, context) {
    const imperial = context.settings.units === 'imperial'
    const name = city.split(',')[0]!.trim()
    if (!name) throw new Error('The city is empty.')
    context.status(`Looking up ${name}…`)
    const places = await getJson(context.fetch, `${GEOCODING_ORIGIN}/v1/search?${new URLSearchParams({ name, count: '1', language: 'en', format: 'json' })}`, context.signal)
    const place = places?.results?.[0]
    if (!place) throw new Error(`No place named "${city}" was found.`)
    context.status(`Fetching the weather for ${place.name}…`)
    const query = new URLSearchParams({
      latitude: String(place.latitude),
      longitude: String(place.longitude),
      current: 'temperature_2m,apparent_temperature,relative_humidity_2m,weather_code,wind_speed_10m',
      daily: 'weather_code,temperature_2m_max,temperature_2m_min',
      forecast_days: '4',
      timezone: 'auto',
      ...(imperial && { temperature_unit: 'fahrenheit', wind_speed_unit: 'mph' }),
    })
    const forecast = await getJson(context.fetch, `${FORECAST_ORIGIN}/v1/forecast?${query}`, context.signal)
    const current = forecast?.current
    if (!current) throw new Error('Open-Meteo sent no current weather.')
    const [temperature, wind] = imperial ? ['F', 'Mph'] : ['C', 'Kmh']
    return {
      location: [place.name, place.admin1, place.country].filter(Boolean).join(', '),
      time: current.time,
      [`temperature${temperature}`]: current.temperature_2m,
      [`feelsLike${temperature}`]: current.apparent_temperature,
      humidityPercent: current.relative_humidity_2m,
      [`wind${wind}`]: current.wind_speed_10m,
      conditions: WEATHER_CODES[current.weather_code as number] ?? `weather code ${current.weather_code}`,
      forecast: dailyForecast(forecast?.daily, temperature!),
    }
  },
})
