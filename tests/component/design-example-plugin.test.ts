// Design 000's "Example plugin usage", copied unchanged into a component (tests/fixtures/design-example), works in
// the app: the popover shows it as the design says, and once switched on the model is offered get_weather with the
// design's parameters, through the real OpenAI-compatible client.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import { effectScope } from 'vue'
import ChatInputDropper from '~/components/chat/ChatInputDropper.vue'
import { useChat } from '~/composables/useChat'
import { createThread } from '~/db/threads'
import { listMessages } from '~/db/messages'
import { createOpenAICompatibleModel } from '#shared/stream/openai-compatible-model'
import { listTools, unregisterTool } from '~/utils/chat/tools'
import { getToolRegistry } from '~/utils/chat/registry/tool-registry-singleton'
import { toolPluginsReady } from '~/utils/chat/registry/tool-plugins-ready'
import WeatherPlugin from '../fixtures/design-example/WeatherPlugin.vue'

const DESIGN_PARAMETERS = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }

/** An OpenAI-compatible endpoint that records each request body and answers with the next scripted SSE stream. */
function recordingEndpoint(streams: string[][]) {
  const bodies: Array<Record<string, unknown>> = []
  const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)))
    const chunks = streams.shift() ?? []
    const text = [...chunks.map(chunk => `data: ${chunk}\n\n`), 'data: [DONE]\n\n'].join('')
    return new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } })
  }
  return { bodies, fetch: fetch as typeof globalThis.fetch }
}

const mounted: Array<{ unmount: () => void }> = []
afterEach(() => {
  mounted.splice(0).forEach(wrapper => wrapper.unmount())
})

describe('the design\'s example plugin', () => {
  it('shows its label, category and default-off state, and once on is offered to the model as written', async () => {
    // the app's own plugins/ also has a get_weather: start from an empty registry
    await toolPluginsReady()
    for (const tool of [...listTools().value]) unregisterTool(tool.name)

    mounted.push(await mountSuspended(WeatherPlugin))
    const requestedOpen: boolean[] = []
    const dropper = await mountSuspended(ChatInputDropper, { props: { 'open': false, 'onUpdate:open': (value: boolean) => requestedOpen.push(value) } })
    mounted.push(dropper)
    await dropper.find('[data-testid="tool-popover-trigger"]').trigger('click')
    await dropper.setProps({ open: true })
    await flushPromises()

    const row = document.body.querySelector('[data-tool="get_weather"]')!
    const toggle = row.querySelector<HTMLButtonElement>('[data-testid="tool-switch-get_weather"]')!
    expect(document.body.querySelector(`label[for="${toggle.id}"]`)!.textContent!.trim()).toBe('Weather lookup')
    expect(row.closest('[data-slot="category"]')!.querySelector('h3')!.textContent!.trim()).toBe('Integrations')
    expect(row.textContent).toContain('Let the assistant look up weather data.')
    expect(toggle.getAttribute('aria-checked')).toBe('false')
    expect(getToolRegistry().getEnabledDefinitions()).toEqual([])

    toggle.click()
    await flushPromises()
    expect(toggle.getAttribute('aria-checked')).toBe('true')

    const endpoint = recordingEndpoint([
      [JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] } }] }),
        JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })],
      [JSON.stringify({ choices: [{ index: 0, delta: { content: 'It is sunny in Oslo.' }, finish_reason: 'stop' }] })],
    ])
    const threadId = (await createThread()).id
    const scope = effectScope()
    const chat = scope.run(() => useChat(() => threadId, {
      createModel: () => createOpenAICompatibleModel({ baseURL: 'http://127.0.0.1:9/v1', model: 'fake/model', fetch: endpoint.fetch }),
      getToolSet: context => getToolRegistry().getToolSet(context),
    }))!
    await chat.send('What is the weather in Oslo?')
    await vi.waitFor(() => expect(chat.streaming.value).toBe(false), { timeout: 5_000, interval: 5 })
    scope.stop()

    expect(endpoint.bodies[0]!.tools).toEqual([{
      type: 'function',
      function: { name: 'get_weather', description: 'Fetch the current weather for a city.', parameters: DESIGN_PARAMETERS },
    }])
    // the handler ran with the model's arguments and its answer went back to the model
    expect(endpoint.bodies[1]!.messages).toContainEqual(expect.objectContaining({ role: 'tool', tool_call_id: 'call_1', content: 'Sunny, 18 °C in Oslo' }))
    const rows = await listMessages(threadId)
    expect(rows.at(-1)).toMatchObject({ role: 'assistant', content: 'It is sunny in Oslo.' })
  })

  it('unregisters get_weather when the component that registered it goes away', async () => {
    await toolPluginsReady()
    for (const tool of [...listTools().value]) unregisterTool(tool.name)
    const plugin = await mountSuspended(WeatherPlugin)
    expect(listTools().value.map(tool => tool.name)).toEqual(['get_weather'])
    plugin.unmount()
    expect(listTools().value).toEqual([])
  })
})
