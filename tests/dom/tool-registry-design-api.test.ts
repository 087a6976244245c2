// Design 000's plugin API, used as a plugin author reads it there: `~/utils/chat/tools` on the app's registry.
import { mount } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { computed, defineComponent, effectScope, h, isRef, nextTick, onMounted, onScopeDispose, reactive, ref, watch } from 'vue'
import {
  defineTool, DuplicateToolError, InvalidToolDefinitionError, listTools, registerTool, unregisterTool, useToolRegistry,
} from '~/utils/chat/tools'
import { loadToolPlugins } from '~/utils/chat/registry/load-tool-plugins'
import { TOOL_STATES_STORAGE_KEY } from '~/utils/chat/registry/tool-state-storage'
import { getToolRegistry } from '~/utils/chat/registry/tool-registry-singleton'
import { createToolRegistry } from '~/utils/chat/tool-registry'

const REGISTRY_KEY = Symbol.for('plugboard.toolRegistry')

const weather = defineTool({
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Fetch the current weather for a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  ui: { label: 'Weather lookup', icon: 'i-mdi:weather-partly-cloudy', descriptionHint: 'Let the assistant look up weather data.', defaultEnabled: false, category: 'Integrations' },
})

function saved(): Record<string, boolean> {
  return JSON.parse(localStorage.getItem(TOOL_STATES_STORAGE_KEY) ?? '{"states":{}}').states
}

function save(states: Record<string, boolean>) {
  localStorage.setItem(TOOL_STATES_STORAGE_KEY, JSON.stringify({ version: 1, states }))
}

beforeEach(() => {
  localStorage.clear()
  vi.useFakeTimers()
})
afterEach(() => {
  getToolRegistry().dispose()
  delete (globalThis as Record<symbol, unknown>)[REGISTRY_KEY]
  vi.useRealTimers()
})

describe('registerTool from ~/utils/chat/tools', () => {
  it('keeps the definition with its ui, and never sends the ui to the model', async () => {
    registerTool(weather.definition, ({ city }) => `Sunny in ${city}`)
    const [tool] = listTools().value
    expect(tool!.definition.ui).toMatchObject({ label: 'Weather lookup', icon: 'i-mdi:weather-partly-cloudy', category: 'Integrations', defaultEnabled: false })
    expect(tool!.definition.function.parameters).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] })
    expect(JSON.parse(JSON.stringify(tool!.definition))).toEqual({
      type: 'function',
      function: { name: 'get_weather', description: 'Fetch the current weather for a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    })
    expect(await tool!.handler({ city: 'Oslo' }, { signal: new AbortController().signal, threadId: 't', callId: 'c', status: () => {}, settings: {} })).toBe('Sunny in Oslo')
    // the older fields read the same metadata
    expect([tool!.label, tool!.icon, tool!.category, tool!.description]).toEqual(['Weather lookup', 'i-mdi:weather-partly-cloudy', 'Integrations', 'Let the assistant look up weather data.'])
  })

  it.each([
    ['the option', { get_weather: true }, { enabled: false }, false],
    ['the saved choice', { get_weather: true }, {}, true],
    ['ui.defaultEnabled', {}, {}, false],
  ] as const)('initialises enabled from %s first', (_, states, options, expected) => {
    save(states)
    registerTool(weather.definition, () => '', options)
    expect(listTools().value[0]!.enabled.value).toBe(expected)
  })

  it('is on by default when nothing says otherwise', () => {
    registerTool({ type: 'function', function: { name: 'plain' } }, () => '')
    expect(listTools().value[0]!.enabled.value).toBe(true)
  })

  it('saves tool.enabled.value = false exactly as the popover switch does', () => {
    registerTool(weather.definition, () => '', { enabled: true })
    registerTool({ type: 'function', function: { name: 'other' } }, () => '')
    const [byRef, bySwitch] = listTools().value
    byRef!.enabled.value = false
    useToolRegistry().setEnabled('other', false)
    vi.runAllTimers()
    expect(saved()).toEqual({ get_weather: false, other: false })
    expect(useToolRegistry().getEnabledDefinitions()).toEqual([])
    expect(bySwitch!.enabled.value).toBe(false)
  })

  it('refuses a value that is not a boolean, leaving the switch as it was', () => {
    registerTool(weather.definition, () => '')
    const tool = listTools().value[0]!
    expect(() => { (tool.enabled as { value: unknown }).value = 'yes' }).toThrow(TypeError)
    expect(tool.enabled.value).toBe(false)
  })

  it('keeps enabled and lastError refs wherever the tool is stored', () => {
    registerTool(weather.definition, () => '')
    const kept = reactive({ tools: [...listTools().value] })
    expect(isRef(kept.tools[0]!.enabled)).toBe(true)
    expect(isRef(ref(listTools().value[0]).value!.lastError)).toBe(true)
    expect(() => { (listTools().value[0] as { name: string }).name = 'renamed' }).toThrow(TypeError)
  })

  it('refuses a second registration of a name unless override is set', () => {
    const registry = createToolRegistry()
    registry.registerTool(weather.definition, () => 'first')
    expect(() => registry.registerTool(weather.definition, () => 'second')).toThrow(DuplicateToolError)
    registry.registerTool(weather.definition, () => 'third', { override: true })
    expect(registry.listTools().value).toHaveLength(1)
  })

  it('on the dev server, replaces a tool registered again by hot reload, with a warning instead of an error', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const registry = createToolRegistry({ replaceDuplicates: true })
    const disposeOld = registry.registerTool(weather.definition, () => 'old module')
    registry.registerTool(weather.definition, () => 'new module')
    // the old module's clean-up runs late and must not remove the new tool
    disposeOld()
    expect(registry.listTools().value.map(tool => tool.handler({}, {} as never))).toEqual(['new module'])
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('tool "get_weather" was registered again'))
  })
})

describe('listTools', () => {
  it('returns one reactive list that follows registrations and switches', async () => {
    expect(listTools()).toBe(listTools())
    const onCount = computed(() => listTools().value.filter(tool => tool.enabled.value).length)
    const seen: number[] = []
    const stop = watch(onCount, count => seen.push(count), { immediate: true })
    registerTool({ type: 'function', function: { name: 'a' } }, () => '')
    await nextTick()
    listTools().value[0]!.enabled.value = false
    await nextTick()
    unregisterTool('a')
    await nextTick()
    stop()
    expect(seen).toEqual([0, 1, 0])
  })

  it('still answers listTools.value for code written against the computed', () => {
    registerTool({ type: 'function', function: { name: 'a' } }, () => '')
    expect(getToolRegistry().listTools.value.map(tool => tool.name)).toEqual(['a'])
  })
})

describe('unregisterTool', () => {
  it('works from onScopeDispose, as the design recommends', () => {
    const scope = effectScope()
    scope.run(() => {
      registerTool(weather.definition, () => '')
      onScopeDispose(() => unregisterTool('get_weather'))
    })
    expect(listTools().value).toHaveLength(1)
    scope.stop()
    expect(listTools().value).toEqual([])
  })

  it('removes a tool a component registered in onMounted when it unmounts', async () => {
    const Plugin = defineComponent({
      setup() {
        onMounted(() => registerTool(weather.definition, () => ''))
        return () => h('div')
      },
    })
    const wrapper = mount(Plugin)
    expect(listTools().value.map(tool => tool.name)).toEqual(['get_weather'])
    wrapper.unmount()
    expect(listTools().value).toEqual([])
  })

  it('keeps the user\'s choice for when the tool comes back', () => {
    registerTool(weather.definition, () => '')
    listTools().value[0]!.enabled.value = true
    expect(unregisterTool('get_weather')).toBe(true)
    expect(unregisterTool('get_weather')).toBe(false)
    registerTool(weather.definition, () => '')
    expect(listTools().value[0]!.enabled.value).toBe(true)
  })
})

describe('defineTool in the design\'s form', () => {
  it('reports a broken definition where it is written, naming the tool and the place', () => {
    expect(() => defineTool({ type: 'function', function: { name: 'bad tool' } })).toThrow(InvalidToolDefinitionError)
    expect(() => defineTool({ type: 'function', function: { name: 'bad', parameters: { type: 'object', properties: { n: { type: 'int' } } } } }))
      .toThrow(/Tool "bad".*parameters\.properties\.n\.type/)
  })

  it('with a handler, is a plugin file the loader registers next to the one-file form', async () => {
    const result = await loadToolPlugins({
      '/plugins/dice.ts': async () => ({ default: defineTool({ type: 'function', function: { name: 'roll_dice' }, ui: { category: 'Games' } }, () => 4) }),
      '/plugins/coin.ts': async () => ({ default: defineTool({ name: 'flip_coin', handler: () => 'heads' }) }),
    }, getToolRegistry())
    expect(result.failed).toEqual([])
    expect(listTools().value.map(tool => [tool.name, tool.category])).toEqual([['flip_coin', 'General'], ['roll_dice', 'Games']])
  })
})
