import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatInputDropper from '~/components/chat/ChatInputDropper.vue'
import { toolRegistryKey } from '~/composables/useToolRegistry'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import type { RegisterableToolDefinition, ToolRegistry } from '~/utils/chat/registry/tool-registry-types'

const noop = () => 'ok'
const mounted: Array<{ unmount: () => void }> = []

function tool(name: string, extra: Partial<RegisterableToolDefinition> = {}, description?: string): RegisterableToolDefinition {
  return { type: 'function', function: { name, ...(description && { description }) }, ...extra }
}

/**
 * Mount, open with the trigger, then hold it open through `v-model:open`: jsdom cannot move focus into
 * a popover without a focusable child (empty list, every switch disabled) and Reka closes it again at once.
 */
async function open(registry: ToolRegistry, props: { disabled?: boolean } = {}) {
  const requested: boolean[] = []
  const wrapper = await mountSuspended(ChatInputDropper, {
    props: { ...props, 'open': false, 'onUpdate:open': (value: boolean) => requested.push(value) },
    global: { provide: { [toolRegistryKey as symbol]: registry } },
  })
  mounted.push(wrapper)
  await wrapper.find('[data-testid="tool-popover-trigger"]').trigger('click')
  if (requested[0] !== true) throw new Error('the trigger did not ask to open the popover')
  await wrapper.setProps({ open: true })
  await flushPromises()
  return wrapper
}

const body = () => document.body
const $ = <T extends Element = HTMLElement>(selector: string) => body().querySelector<T>(selector)
const switchOf = (name: string) => $<HTMLButtonElement>(`[data-testid="tool-switch-${name}"]`)!

afterEach(() => {
  mounted.splice(0).forEach(wrapper => wrapper.unmount())
})

describe('ChatInputDropper', () => {
  it('shows the number of enabled tools on a labelled trigger', async () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('a'), noop)
    registry.registerTool(tool('b'), noop, { enabled: false })
    registry.registerTool(tool('c'), noop)
    const wrapper = await mountSuspended(ChatInputDropper, { global: { provide: { [toolRegistryKey as symbol]: registry } } })
    mounted.push(wrapper)
    const trigger = wrapper.find('[data-testid="tool-popover-trigger"]')
    expect(trigger.attributes('aria-label')).toBe('Tool settings')
    expect(trigger.text()).toBe('2')
  })

  it('lists every tool with a labelled switch bound to its enabled state', async () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('get_weather', { icon: 'i-lucide-cloud-sun' }, 'Current weather for a city'), noop, { enabled: false })
    registry.registerTool(tool('calculate', { ui: { label: 'Calculator' } }), noop)
    await open(registry)

    const weather = switchOf('get_weather')
    expect(weather.getAttribute('role')).toBe('switch')
    expect(weather.getAttribute('aria-checked')).toBe('false')
    expect($(`label[for="${weather.id}"]`)!.textContent!.trim()).toBe('Get weather')
    expect($(`label[for="${switchOf('calculate').id}"]`)!.textContent!.trim()).toBe('Calculator')
    expect(switchOf('calculate').getAttribute('aria-checked')).toBe('true')

    weather.click()
    await flushPromises()
    expect(registry.getTool('get_weather')!.enabled.value).toBe(true)
    expect(switchOf('get_weather').getAttribute('aria-checked')).toBe('true')

    registry.setEnabled('calculate', false)
    await flushPromises()
    expect(switchOf('calculate').getAttribute('aria-checked')).toBe('false')
  })

  it('binds each switch to the tool\'s enabled ref, saved like any switch', async () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('bound'), noop)
    await open(registry)
    registry.getTool('bound')!.enabled.value = false
    await flushPromises()
    expect(switchOf('bound').getAttribute('aria-checked')).toBe('false')
    switchOf('bound').click()
    await flushPromises()
    expect(registry.getTool('bound')!.enabled.value).toBe(true)
  })

  it('shows ui.icon: an Iconify name as an icon, an image URL as an image with alt text', async () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('iconified', { ui: { icon: 'i-mdi:weather-partly-cloudy' } }), noop)
    registry.registerTool(tool('pictured', { ui: { label: 'Pictured', icon: 'https://example.com/logo.png' } }), noop)
    await open(registry)
    const picture = $<HTMLImageElement>('[data-tool="pictured"] img[data-slot="tool-icon"]')!
    expect(picture.getAttribute('src')).toBe('https://example.com/logo.png')
    expect(picture.getAttribute('alt')).toBe('Pictured icon')
    expect($('[data-tool="iconified"] img')).toBeNull()
    expect($('[data-tool="iconified"] [data-slot="tool-icon"]')).not.toBeNull()
  })

  it('links each switch to its muted description with aria-describedby', async () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('described', { ui: { descriptionHint: 'Shown to people' } }, 'Sent to the model'), noop)
    registry.registerTool(tool('bare'), noop)
    await open(registry)
    const describedBy = switchOf('described').getAttribute('aria-describedby')!
    expect(body().querySelector(`[id="${describedBy}"]`)!.textContent).toBe('Shown to people')
    expect(switchOf('bare').hasAttribute('aria-describedby')).toBe(false)
  })

  it('groups tools by category under headings', async () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('one', { category: 'Utilities' }), noop)
    registry.registerTool(tool('two'), noop)
    registry.registerTool(tool('three', { ui: { category: 'Utilities' } }), noop)
    await open(registry)
    const sections = [...body().querySelectorAll('[data-slot="category"]')]
    expect(sections.map(section => section.querySelector('h3')!.textContent!.trim())).toEqual(['Utilities', 'General'])
    expect([...sections[0]!.querySelectorAll('[data-tool]')].map(item => item.getAttribute('data-tool'))).toEqual(['one', 'three'])
  })

  it('shows an empty state when no tool is registered', async () => {
    await open(createToolRegistry())
    expect($('[data-slot="empty"]')!.textContent!.trim()).toBe('No tools registered. Drop a file into plugins/ to add one.')
    expect($('[data-testid="tool-filter"]')).toBeNull()
  })

  it('offers a filter box when there are more than six tools, and filters by label and description', async () => {
    const registry = createToolRegistry()
    for (const name of ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta']) registry.registerTool(tool(name), noop)
    await open(registry)
    expect($('[data-testid="tool-filter"]')).toBeNull()

    registry.registerTool(tool('get_weather', {}, 'Forecast from Open-Meteo'), noop)
    await flushPromises()
    const filter = $<HTMLInputElement>('[data-testid="tool-filter"] input') ?? $<HTMLInputElement>('input[data-testid="tool-filter"]')!
    filter.value = 'open-meteo'
    filter.dispatchEvent(new Event('input'))
    await flushPromises()
    expect([...body().querySelectorAll('[data-tool]')].map(item => item.getAttribute('data-tool'))).toEqual(['get_weather'])
  })

  it('marks a tool whose last run failed', async () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('flaky'), noop)
    await open(registry)
    expect($('[data-slot="last-error"]')).toBeNull()
    registry.setLastError('flaky', 'Timed out after 10 s')
    await flushPromises()
    const mark = $('[data-slot="last-error"]')!
    expect(mark.getAttribute('title')).toBe('Last run failed: Timed out after 10 s')
    expect(mark.querySelector('.sr-only')!.textContent).toBe('Last run failed: Timed out after 10 s')
    expect(switchOf('flaky').getAttribute('aria-describedby')).toContain(mark.id)
  })

  it('disables every switch with a hint while a reply streams', async () => {
    const registry = createToolRegistry()
    registry.registerTool(tool('a'), noop)
    registry.registerTool(tool('b'), noop)
    await open(registry, { disabled: true })
    expect(switchOf('a').disabled).toBe(true)
    expect(switchOf('b').disabled).toBe(true)
    const hint = $('[data-slot="disabled-hint"]')!
    expect(hint.textContent).toContain('Tools can be switched when the reply has finished.')
    expect(switchOf('a').getAttribute('aria-describedby')).toContain(hint.id)
    switchOf('a').click()
    await flushPromises()
    expect(registry.getTool('a')!.enabled.value).toBe(true)
  })
})
