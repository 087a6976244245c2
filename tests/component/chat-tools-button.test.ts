import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatToolsButton from '~/components/chat/ChatToolsButton.vue'
import { toolRegistryKey } from '~/composables/useToolRegistry'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import type { ToolRegistry } from '~/utils/chat/registry/tool-registry-types'

const mounted: Array<{ unmount: () => void }> = []
afterEach(() => {
  mounted.splice(0).forEach(wrapper => wrapper.unmount())
})

function registryWith(names: Record<string, boolean>): ToolRegistry {
  const registry = createToolRegistry()
  for (const [name, enabled] of Object.entries(names)) registry.registerTool({ type: 'function', function: { name } }, () => 'ok', { enabled })
  return registry
}

async function mountButton(registry: ToolRegistry) {
  const wrapper = await mountSuspended(ChatToolsButton, { global: { provide: { [toolRegistryKey as symbol]: registry } } })
  mounted.push(wrapper)
  return wrapper
}

describe('ChatToolsButton', () => {
  it('shows the number of tools the next send gets on a labelled button before the popover has loaded', async () => {
    const registry = registryWith({ a: true, b: false, c: true })
    const wrapper = await mountButton(registry)
    const trigger = wrapper.find('[data-testid="tool-popover-trigger"]')
    expect(trigger.attributes('aria-label')).toBe('Tool settings')
    expect(trigger.attributes('aria-haspopup')).toBe('dialog')
    expect(trigger.text()).toBe('2')
    expect(document.body.querySelector('[data-testid="tool-popover-content"]')).toBeNull()

    registry.setEnabled('b', true)
    await flushPromises()
    expect(wrapper.find('[data-testid="tool-popover-trigger"]').text()).toBe('3')
  })

  it('opens the tool settings popover with every switch on the first press', async () => {
    const wrapper = await mountButton(registryWith({ get_weather: false, calculate: true }))
    await wrapper.find('[data-testid="tool-popover-trigger"]').trigger('click')
    // the popover's code is imported on that press (transformed on first use under vitest: allow for it)
    await expect.poll(() => document.body.querySelector('[data-testid="tool-popover-content"]'), { timeout: 20_000 }).not.toBeNull()
    expect(document.body.querySelector('[data-testid="tool-switch-calculate"]')?.getAttribute('aria-checked')).toBe('true')
    expect(document.body.querySelector('[data-testid="tool-switch-get_weather"]')?.getAttribute('aria-checked')).toBe('false')
    // one trigger, the popover's own, which says the popover is open
    expect(wrapper.findAll('[data-testid="tool-popover-trigger"]')).toHaveLength(1)
    expect(wrapper.find('[data-testid="tool-popover-trigger"]').attributes('aria-expanded')).toBe('true')
  })
})
