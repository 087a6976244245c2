import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mount, type VueWrapper } from '@vue/test-utils'
import ChatMessageContent from '~/components/chat/ChatMessageContent.vue'
import { renderMarkdown } from '~/utils/chat/markdown/markdown'
import { readChatStream } from '#shared/stream/read-chat-stream'
import { buildDemoFrames } from '~~/server/utils/demo-model/demo-frames'
import { planDemoReply } from '~~/server/utils/demo-model/demo-plan'
import type { DemoRequest } from '~~/server/utils/demo-model/demo-request'

// The message list renders a reply block by block while it streams, re-rendering only the block that changed.
// Whatever the deltas, the final DOM must be the DOM of the whole reply rendered at once.

const corpus = resolve('tests/fixtures/corpora/sse-streams')

/** The text deltas of a recorded stream, read by the app's own stream reader. */
async function recordedDeltas(file: string): Promise<string[]> {
  const bytes = readFileSync(resolve(corpus, file))
  const body = new ReadableStream<Uint8Array>({ start(controller) { controller.enqueue(new Uint8Array(bytes)); controller.close() } })
  const deltas: string[] = []
  for await (const event of readChatStream(body)) if (event.type === 'text-delta') deltas.push(event.text)
  return deltas
}

/** The text deltas the demo model sends for a prompt (with the given tools offered). */
function demoDeltas(messages: DemoRequest['messages'], toolNames: string[] = []): string[] {
  const tools = toolNames.map(name => ({ type: 'function' as const, function: { name, parameters: { type: 'object', properties: { expression: { type: 'string' }, city: { type: 'string' } } } } }))
  const plan = planDemoReply({ messages, tools } as DemoRequest)
  return buildDemoFrames(plan, { id: 'x', created: 0, model: 'plugboard/demo', promptChars: 0 })
    .map(frame => (typeof frame.data === 'object' ? (frame.data as { choices?: Array<{ delta?: { content?: string | null } }> }).choices?.[0]?.delta?.content : undefined))
    .filter((text): text is string => typeof text === 'string' && text.length > 0)
}

/** Top-level elements of rendered HTML, as markup (text between blocks is only line breaks). */
function topLevelMarkup(root: Element): string[] {
  return [...root.children].map(child => child.outerHTML)
}

let wrapper: VueWrapper | undefined
afterEach(() => wrapper?.unmount())

async function streamThenWhole(deltas: string[]): Promise<{ streamed: string[], whole: string[], text: string }> {
  wrapper = mount(ChatMessageContent, { props: { content: '', streaming: true } })
  // The page renders once per animation frame, so several deltas land together; at most 150 renders a reply
  // keeps the test quick while the cut points still fall everywhere (inside fences, lists, words).
  const stride = Math.ceil(deltas.length / 150)
  let text = ''
  for (const [index, delta] of deltas.entries()) {
    text += delta
    if (index % stride === 0) await wrapper.setProps({ content: text, streaming: true })
  }
  await wrapper.setProps({ content: text, streaming: false })
  // A burst of blocks is shown over a few frames: the reply is complete once nothing is left to render.
  await vi.waitFor(() => expect(wrapper!.find('[data-rendering]').exists()).toBe(false), { timeout: 20_000, interval: 20 })
  const streamed = wrapper.findAll('[data-slot="markdown-block"]').flatMap(block => topLevelMarkup(block.element))
  const whole = document.createElement('div')
  whole.innerHTML = renderMarkdown(text)
  return { streamed, whole: topLevelMarkup(whole), text }
}

const scenarios: Array<[string, DemoRequest['messages'], string[]?]> = [
  ['greeting', [{ role: 'user', content: 'Hello there' }]],
  ['markdown', [{ role: 'user', content: 'Show me some markdown' }]],
  ['long', [{ role: 'user', content: 'Write something long' }]],
  ['reasoning', [{ role: 'user', content: 'Think about markdown' }]],
  ['error', [{ role: 'user', content: 'Show me an error' }]],
  ['tools off', [{ role: 'user', content: 'What is 12*7?' }]],
  ['tool answer', [
    { role: 'user', content: 'What is 12*7 and the time in Tokyo?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'calculate', arguments: '{"expression":"12*7"}' } }, { id: 'c2', type: 'function', function: { name: 'get_current_time', arguments: '{"city":"Tokyo"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: '84' },
    { role: 'tool', tool_call_id: 'c2', content: '{"time":"21:04","timezone":"Asia/Tokyo"}' },
  ], ['calculate', 'get_current_time']],
]

describe('a streamed reply renders as the whole reply', () => {
  it.each(scenarios)('demo scenario: %s', async (_name, messages, tools) => {
    const deltas = demoDeltas(messages, tools)
    expect(deltas.length).toBeGreaterThan(1)
    const { streamed, whole } = await streamThenWhole(deltas)
    expect(whole.length).toBeGreaterThan(0)
    expect(streamed).toEqual(whole)
  })

  const index = JSON.parse(readFileSync(resolve(corpus, 'index.json'), 'utf8')) as { streams: Array<{ file: string, features: string[], derived?: { content?: string } }> }
  const recorded = index.streams
    .filter(stream => stream.features.includes('text') && (stream.derived?.content?.length ?? 0) > 40)
    .sort((a, b) => (b.derived!.content!.length - a.derived!.content!.length))
    .slice(0, 20)

  it('has 20 recorded streams with text to replay', () => {
    expect(recorded).toHaveLength(20)
  })

  it.each(recorded.map(stream => [stream.file]))('recorded stream: %s', async (file) => {
    const deltas = await recordedDeltas(file)
    const { streamed, whole, text } = await streamThenWhole(deltas)
    expect(text.length).toBeGreaterThan(0)
    expect(streamed).toEqual(whole)
  })

  it('catches a block split that would change the rendering (a loose list cut in two)', async () => {
    // The numbering of a loose ordered list continues across blank lines: rendering "2." apart would restart it.
    const { streamed, whole } = await streamThenWhole(['1. one\n\n', '2. two\n\n', '3. three'])
    expect(whole).toHaveLength(1)
    expect(streamed).toEqual(whole)
  })
})

describe('a reply that arrives in a burst', () => {
  /** `count` sections of markdown: heading, paragraph, list, code. */
  // `label` makes the blocks unlike those of other tests (rendered blocks stay in the markdown cache)
  const burst = (count: number, label = '') => Array.from({ length: count }, (_, index) =>
    `## ${label}Part ${index}\n\nText of part ${index} with **bold** and a [link](https://example.com/${index}).\n\n- a\n- b\n\n\`\`\`ts\nconst part = ${index}\n\`\`\``).join('\n\n')

  it('shows its first blocks at once and the rest over the next frames, then exactly the whole reply', async () => {
    const text = burst(50)
    wrapper = mount(ChatMessageContent, { props: { content: '', streaming: true } })
    await wrapper.setProps({ content: text, streaming: true })
    const shownAtFirst = wrapper.findAll('[data-slot="markdown-block"]').length
    expect(shownAtFirst).toBeGreaterThan(0)
    expect(shownAtFirst).toBeLessThan(200)
    expect(wrapper.find('[data-rendering]').exists()).toBe(true)
    // The stream ends before the page caught up: the rest still appears, and the caret stays until it has.
    await wrapper.setProps({ content: text, streaming: false })
    expect(wrapper.find('[data-streaming]').exists()).toBe(true)
    expect(wrapper.findAll('.chat-markdown-tail')).toHaveLength(1)
    await vi.waitFor(() => expect(wrapper!.find('[data-rendering]').exists()).toBe(false), { timeout: 20_000, interval: 20 })
    expect(wrapper.find('[data-streaming]').exists()).toBe(false)
    expect(wrapper.find('.chat-markdown-tail').exists()).toBe(false)
    const whole = document.createElement('div')
    whole.innerHTML = renderMarkdown(text)
    expect(wrapper.findAll('[data-slot="markdown-block"]').flatMap(block => topLevelMarkup(block.element))).toEqual(topLevelMarkup(whole))
  })

  it('shows a finished message that fits the task\'s markdown budget whole at once (opening a chat)', async () => {
    const text = burst(1)
    // the clock stands still while it mounts: the budget is never spent, whatever the machine's speed
    const clock = vi.spyOn(performance, 'now').mockReturnValue(1000)
    wrapper = mount(ChatMessageContent, { props: { content: text, streaming: false } })
    clock.mockRestore()
    expect(wrapper.find('[data-rendering]').exists()).toBe(false)
    expect(wrapper.findAll('[data-slot="markdown-block"]')).toHaveLength(4)
  })

  it('shows the first blocks of the newest message of a chat that opens (eager) at once, even when the task\'s budget is spent', async () => {
    const text = burst(20, 'Eager ')
    let time = 1000
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => time += 10)
    const eager = mount(ChatMessageContent, { props: { content: text, streaming: false, eager: true } })
    const plain = mount(ChatMessageContent, { props: { content: burst(20, 'Plain '), streaming: false } })
    clock.mockRestore()
    expect(eager.findAll('[data-slot="markdown-block"]').length).toBeGreaterThanOrEqual(4)
    expect(eager.findAll('[data-slot="markdown-block"]').length).toBeLessThan(80)
    expect(plain.findAll('[data-slot="markdown-block"]').length).toBeLessThan(4)
    await vi.waitFor(() => expect(eager.find('[data-rendering]').exists()).toBe(false), { timeout: 20_000, interval: 20 })
    expect(eager.findAll('[data-slot="markdown-block"]')).toHaveLength(80)
    eager.unmount()
    plain.unmount()
  })

  it('shows a long finished message over a few frames when it mounts, without a caret, and ends as the whole render', async () => {
    const text = burst(60, 'Mounted ')
    // each look at the clock is a millisecond later: the task's budget runs out after a few blocks on any machine
    let time = 1000
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => time++)
    wrapper = mount(ChatMessageContent, { props: { content: text, streaming: false } })
    clock.mockRestore()
    const shownAtFirst = wrapper.findAll('[data-slot="markdown-block"]').length
    expect(shownAtFirst).toBeGreaterThan(0)
    expect(shownAtFirst).toBeLessThan(240)
    expect(wrapper.find('[data-rendering]').exists()).toBe(true)
    // not a reply arriving: no caret, no moving tail
    expect(wrapper.find('[data-streaming]').exists()).toBe(false)
    expect(wrapper.find('.chat-markdown-tail').exists()).toBe(false)
    await vi.waitFor(() => expect(wrapper!.find('[data-rendering]').exists()).toBe(false), { timeout: 20_000, interval: 20 })
    const whole = document.createElement('div')
    whole.innerHTML = renderMarkdown(text)
    expect(wrapper.findAll('[data-slot="markdown-block"]').flatMap(block => topLevelMarkup(block.element))).toEqual(topLevelMarkup(whole))
  })
})
