import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatToolCard from '~/components/chat/ChatToolCard.vue'
import type { MessageRecord } from '~/db/types'
import { toolCardFromRow, type ToolCardData } from '~/utils/chat/message-list/tool-card'
import { toolRow } from './chat-message-fixtures'

/** The `d` attributes of a lucide icon, as the installed icon set draws it. */
function lucideIconPaths(name: string): string[] {
  const require = createRequire(import.meta.url)
  const set = JSON.parse(readFileSync(require.resolve('@iconify-json/lucide/icons.json'), 'utf8')) as { icons: Record<string, { body: string }> }
  const paths = [...set.icons[name]!.body.matchAll(/ d="([^"]+)"/g)].map(match => `d="${match[1]}"`)
  expect(paths.length).toBeGreaterThan(0)
  return paths
}

function mountCard(rowOrCard: MessageRecord | ToolCardData) {
  return mountSuspended(ChatToolCard, { props: { row: rowOrCard } })
}

describe('ChatToolCard', () => {
  it('shows a queued call with a clock and no details yet to run', async () => {
    const wrapper = await mountCard({ callId: 'c1', name: 'get_weather', status: 'queued' })
    const card = wrapper.find('[data-testid="tool-card"]')
    expect(card.attributes('data-status')).toBe('queued')
    expect(card.attributes('data-tool')).toBe('get_weather')
    expect(card.text()).toContain('Get weather')
    expect(card.text()).toContain('Queued')
    // icons render as inline SVG: the status icon is lucide's clock, drawn from the icon set's own paths
    const statusIcon = card.find('[data-testid="tool-status"] svg').html()
    for (const path of lucideIconPaths('clock')) expect(statusIcon).toContain(path)
  })

  it('shows a running call with a spinner and the handler\'s status text', async () => {
    const wrapper = await mountCard(toolRow('fetch_page', { toolStatus: 'running', toolStatusText: 'Downloading 3 of 5…', finishedAt: undefined }))
    expect(wrapper.find('[data-testid="tool-card"]').attributes('data-status')).toBe('running')
    expect(wrapper.find('[data-testid="tool-summary"]').text()).toBe('Downloading 3 of 5…')
    expect(wrapper.find('.animate-spin').exists()).toBe(true)
    expect(wrapper.find('[data-testid="tool-duration"]').exists()).toBe(false)
  })

  it('shows a finished call as a one-line preview of the result and its duration', async () => {
    const wrapper = await mountCard(toolRow('calculate', { toolResultFull: '84\n\n(12 * 7)', startedAt: 1000, finishedAt: 1340 }))
    expect(wrapper.find('[data-testid="tool-summary"]').text()).toBe('84 (12 * 7)')
    expect(wrapper.find('[data-testid="tool-duration"]').text()).toBe('340 ms')
  })

  it('cuts a long preview to one short line', async () => {
    const wrapper = await mountCard(toolRow('search', { toolResultFull: 'word '.repeat(200) }))
    const summary = wrapper.find('[data-testid="tool-summary"]').text()
    expect(summary.length).toBeLessThanOrEqual(120)
    expect(summary.endsWith('…')).toBe(true)
  })

  it('shows a failed call with its error in red', async () => {
    const wrapper = await mountCard(toolRow('get_weather', { toolStatus: 'error', content: 'city: required', toolResultFull: 'city: required' }))
    expect(wrapper.find('[data-testid="tool-card"]').attributes('data-status')).toBe('error')
    const summary = wrapper.find('[data-testid="tool-summary"]')
    expect(summary.text()).toBe('city: required')
    expect(summary.classes()).toContain('text-error')
  })

  it('shows a call stopped while its arguments were still being written as cut off, saying it did not run', async () => {
    const wrapper = await mountCard(toolRow('get_weather', { toolStatus: 'cancelled', toolArguments: '{"city":"Par', content: 'Cancelled by the user.' }))
    const card = wrapper.find('[data-testid="tool-card"]')
    expect(card.attributes('data-cut-off')).toBe('true')
    expect(wrapper.find('[data-testid="tool-status"]').text()).toBe('Cut off')
    expect(wrapper.find('[data-testid="tool-summary"]').text()).toBe('The call was cut off before it finished; it did not run.')
    const whole = await mountCard(toolRow('get_weather', { toolStatus: 'cancelled', toolArguments: '{"city":"Paris"}', content: 'Cancelled by the user.' }))
    expect(whole.find('[data-testid="tool-status"]').text()).toBe('Cancelled')
  })

  it('shows cancelled and skipped calls', async () => {
    const cancelled = await mountCard(toolRow('slow', { toolStatus: 'cancelled', content: 'Cancelled by the user.' }))
    expect(cancelled.find('[data-testid="tool-card"]').attributes('data-status')).toBe('cancelled')
    expect(cancelled.text()).toContain('Cancelled by the user.')
    const skipped = await mountCard(toolRow('search', { toolStatus: 'skipped', content: 'Same call 3 times in a row; not run again.' }))
    expect(skipped.find('[data-testid="tool-card"]').attributes('data-status')).toBe('skipped')
    expect(skipped.text()).toContain('Skipped')
    expect(skipped.text()).toContain('not run again')
  })

  it('View details shows pretty-printed arguments and the whole output, and hides them again', async () => {
    const output = '{"temp":21,"unit":"C"}'
    const wrapper = await mountCard(toolRow('get_weather', { toolArguments: '{"city":"Paris","days":2}', toolResultFull: output }))
    const toggle = wrapper.find('[data-testid="tool-details-toggle"]')
    expect(toggle.text()).toBe('View details')
    expect(toggle.attributes('aria-expanded')).toBe('false')
    expect(wrapper.find('[data-testid="tool-details"]').exists()).toBe(false)

    await toggle.trigger('click')
    const region = wrapper.find('[data-testid="tool-details"]')
    expect(toggle.attributes('aria-expanded')).toBe('true')
    expect(toggle.attributes('aria-controls')).toBe(region.attributes('id'))
    expect(wrapper.find('[data-testid="tool-arguments"]').text()).toBe('{\n  "city": "Paris",\n  "days": 2\n}')
    expect(wrapper.find('[data-testid="tool-output"]').text()).toBe('{\n  "temp": 21,\n  "unit": "C"\n}')

    await toggle.trigger('click')
    expect(wrapper.find('[data-testid="tool-details"]').exists()).toBe(false)
  })

  it('shows output and arguments that look like HTML as text', async () => {
    const wrapper = await mountCard(toolRow('fetch_page', { toolArguments: 'not json <b>', toolResultFull: '<img src=x onerror=alert(1)><script>alert(2)</script>' }))
    await wrapper.find('[data-testid="tool-details-toggle"]').trigger('click')
    const output = wrapper.find('[data-testid="tool-output"]')
    expect(output.text()).toBe('<img src=x onerror=alert(1)><script>alert(2)</script>')
    expect(output.find('img').exists()).toBe(false)
    expect(output.find('script').exists()).toBe(false)
    expect(wrapper.find('[data-testid="tool-arguments"]').text()).toBe('not json <b>')
  })

  it('says when the model got a shortened result', async () => {
    const wrapper = await mountCard(toolRow('fetch_page', { truncated: true, content: 'short', toolResultFull: 'long '.repeat(50) }))
    await wrapper.find('[data-testid="tool-details-toggle"]').trigger('click')
    expect(wrapper.find('[data-testid="tool-details"]').text()).toContain('shortened for the model')
  })
})

describe('toolCardFromRow', () => {
  it('reads a stored tool row into card data', () => {
    const card = toolCardFromRow(toolRow('calculate', { toolStatus: 'done', toolResultFull: '84', truncated: false, startedAt: 10, finishedAt: 25 }), { calculate: { label: 'Calculator', icon: 'i-lucide-calculator' } })
    expect(card).toMatchObject({ callId: 'call_calculate', name: 'calculate', label: 'Calculator', icon: 'i-lucide-calculator', status: 'done', preview: '84', fullResult: '84', durationMs: 15, arguments: '{"x":1}' })
    expect(card.error).toBeUndefined()
  })

  it('treats a row without a tool status as done, or as failed when the row failed', () => {
    expect(toolCardFromRow(toolRow('x', { toolStatus: undefined })).status).toBe('done')
    expect(toolCardFromRow(toolRow('x', { toolStatus: undefined, status: 'error', content: 'boom' }))).toMatchObject({ status: 'error', error: 'boom' })
  })
})
