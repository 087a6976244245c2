import { describe, expect, it, vi } from 'vitest'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ToolCardWeather from '~/components/chat/tool-cards/ToolCardWeather.vue'
import type { ToolCardData } from '~/utils/chat/message-list/tool-card'

const card = (fullResult: string): ToolCardData => ({ callId: 'w1', name: 'get_weather', status: 'done', arguments: '{"city":"Lisbon"}', fullResult, preview: fullResult })

describe('the weather card', () => {
  it('shows the reading: temperature, humidity and the next days', async () => {
    const result = { location: 'Lisbon, Portugal', conditions: 'partly cloudy', temperatureC: 23.4, feelsLikeC: 24, humidityPercent: 55, windKmh: 12,
      forecast: [{ date: '2026-11-28', highC: 21, lowC: 14, conditions: 'rain' }] }
    const wrapper = await mountSuspended(ToolCardWeather, { props: { args: { city: 'Lisbon' }, result, status: 'done', statusText: undefined, card: card(JSON.stringify(result)) } })
    expect(wrapper.find('[data-testid="weather-card-temperature"]').text()).toBe('23°C')
    expect(wrapper.text()).toContain('55%')
    expect(wrapper.findAll('[data-testid="weather-card-forecast"] li')).toHaveLength(1)
  })

  it('shows a result stored as text as text, without failing (no fallback note, nothing logged)', async () => {
    const warn = vi.spyOn(console, 'warn')
    const error = vi.spyOn(console, 'error')
    const text = 'The weather service did not answer: try again in a minute.'
    const wrapper = await mountSuspended(ToolCardWeather, { props: { args: { city: 'Lisbon' }, result: text, status: 'done', statusText: undefined, card: card(text) } })
    expect(wrapper.find('[data-testid="weather-card-text"]').text()).toBe(text)
    expect(wrapper.find('[data-testid="weather-card"]').exists()).toBe(false)
    expect(warn).not.toHaveBeenCalled()
    expect(error).not.toHaveBeenCalled()
    warn.mockRestore()
    error.mockRestore()
  })

  it('shows a JSON result that is not a reading as its text', async () => {
    const wrapper = await mountSuspended(ToolCardWeather, { props: { args: { city: 'Atlantis' }, result: { error: 'no such city' }, status: 'done', statusText: undefined, card: card('{"error":"no such city"}') } })
    expect(wrapper.find('[data-testid="weather-card-text"]').text()).toBe('{"error":"no such city"}')
  })
})
