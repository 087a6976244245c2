import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readChatStream } from '#shared/stream/read-chat-stream'
import { createToolCallAccumulator } from '#shared/tools/tool-call-accumulator'
import type { ToolCallDeltaEvent } from '#shared/tools/tool-call-accumulator'

const corpus = resolve(process.cwd(), 'tests/fixtures/corpora/sse-streams')

interface IndexEntry {
  file: string
  features: string[]
  derived: { tool_calls: { index: number, id: string, name: string, arguments: string }[] | null }
}

const streams = (JSON.parse(readFileSync(resolve(corpus, 'index.json'), 'utf8')) as { streams: IndexEntry[] }).streams

async function accumulate(file: string) {
  const text = readFileSync(resolve(corpus, file), 'utf8')
  // Re-chunk at an awkward size so fragments cross network-chunk boundaries as they do on the wire.
  const chunks = Array.from({ length: Math.ceil(text.length / 97) }, (_, i) => text.slice(i * 97, (i + 1) * 97))
  const accumulator = createToolCallAccumulator()
  const announced: string[] = []
  for await (const event of readChatStream((async function* () { yield* chunks })())) {
    if (event.type !== 'tool-call-delta') continue
    const first = accumulator.push(event)
    if (first) announced.push(first.name)
  }
  return { calls: accumulator.calls(), announced }
}

const delta = (fields: Omit<ToolCallDeltaEvent, 'type'>): ToolCallDeltaEvent => ({ type: 'tool-call-delta', ...fields })

describe('tool-call accumulation over the recorded SSE corpus', () => {
  const withCalls = streams.filter(entry => (entry.derived.tool_calls?.length ?? 0) > 0)

  it('covers every recorded stream that carries tool calls', () => {
    expect(withCalls.length).toBe(32)
  })

  // The collector merged two responses recorded in one file into "{}{}"; they are two calls with two ids.
  const twoResponsesInOneFile = 'vercel-ai/cerebras__cererebras-structured-output-tools.1.sse'

  it.each(withCalls.filter(entry => entry.file !== twoResponsesInOneFile).map(entry => [entry.file, entry] as const))(
    'rebuilds the calls of %s',
    async (_file, entry) => {
      const { calls, announced } = await accumulate(entry.file)
      const expected = entry.derived.tool_calls!
      expect(calls.map(call => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })))
        .toEqual(expected.map(call => ({ id: call.id, name: call.name, arguments: call.arguments })))
      expect(announced).toEqual(expected.map(call => call.name))
    },
  )

  it('splits two complete calls that reuse index 0 with different ids into two calls', async () => {
    const { calls } = await accumulate(twoResponsesInOneFile)
    expect(calls.map(call => [call.id, call.function.name, call.function.arguments]))
      .toEqual([['bbd2b9d98', 'nonUsefulTool', '{}'], ['e0ecf32e0', 'nonUsefulTool', '{}']])
  })

  it('finds no calls in the streams without tool calls', async () => {
    const without = streams.filter(entry => (entry.derived.tool_calls?.length ?? 0) === 0)
    for (const entry of without) expect((await accumulate(entry.file)).calls, entry.file).toEqual([])
  })
})

describe('createToolCallAccumulator', () => {
  it('joins argument fragments of several calls by index, ordered by index', () => {
    const accumulator = createToolCallAccumulator()
    accumulator.push(delta({ index: 1, id: 'b', name: 'second', argumentsDelta: '{"x"' }))
    accumulator.push(delta({ index: 0, id: 'a', name: 'first', argumentsDelta: '{"q":' }))
    accumulator.push(delta({ index: 1, argumentsDelta: ':2}' }))
    accumulator.push(delta({ index: 0, argumentsDelta: '"hi"}' }))
    expect(accumulator.calls()).toEqual([
      { id: 'a', type: 'function', function: { name: 'first', arguments: '{"q":"hi"}' } },
      { id: 'b', type: 'function', function: { name: 'second', arguments: '{"x":2}' } },
    ])
  })

  it('announces a call once, when its name first arrives', () => {
    const accumulator = createToolCallAccumulator()
    expect(accumulator.push(delta({ index: 0, id: 'a', argumentsDelta: '' }))).toBeUndefined()
    expect(accumulator.push(delta({ index: 0, name: 'lookup' }))).toEqual({ index: 0, id: 'a', name: 'lookup' })
    expect(accumulator.push(delta({ index: 0, name: 'lookup', argumentsDelta: '{}' }))).toBeUndefined()
  })

  it('makes up stable ids when the provider sends none', () => {
    const accumulator = createToolCallAccumulator()
    const first = accumulator.push(delta({ index: 0, name: 'a', argumentsDelta: '{' }))
    accumulator.push(delta({ index: 1, name: 'b', argumentsDelta: '{}' }))
    accumulator.push(delta({ index: 0, argumentsDelta: '}' }))
    const calls = accumulator.calls()
    expect(calls[0]!.id).toMatch(/^call_[a-z0-9]+_0$/)
    expect(calls[1]!.id).toMatch(/^call_[a-z0-9]+_1$/)
    expect(calls[0]!.id).toBe(first!.id)
    expect(accumulator.calls().map(call => call.id)).toEqual(calls.map(call => call.id))
  })

  it('uses the idPrefix option for made-up ids', () => {
    const accumulator = createToolCallAccumulator({ idPrefix: 'gen' })
    accumulator.push(delta({ index: 2, name: 'a' }))
    expect(accumulator.calls()[0]!.id).toBe('gen_2')
  })

  it('replaces instead of appending when a provider repeats the whole call in every chunk', () => {
    const accumulator = createToolCallAccumulator()
    accumulator.push(delta({ index: 0, id: 'a', name: 'weather', argumentsDelta: '{"city":"Paris"}' }))
    accumulator.push(delta({ index: 0, id: 'a', name: 'weather', argumentsDelta: '{"city":"Paris"}' }))
    accumulator.push(delta({ index: 0, id: 'a', name: 'weather', argumentsDelta: '{"city":"Paris"}' }))
    expect(accumulator.calls()).toHaveLength(1)
    expect(accumulator.calls()[0]!.function.arguments).toBe('{"city":"Paris"}')
  })

  it('keeps the last snapshot when a provider sends the arguments so far in every chunk', () => {
    const accumulator = createToolCallAccumulator()
    for (const snapshot of ['{"ci', '{"city":"Pa', '{"city":"Paris"}']) {
      accumulator.push(delta({ index: 0, id: 'a', name: 'weather', argumentsDelta: snapshot }))
    }
    expect(accumulator.calls()[0]!.function.arguments).toBe('{"city":"Paris"}')
  })

  it('starts a new call when a new id arrives on an index whose arguments are complete', () => {
    const accumulator = createToolCallAccumulator()
    accumulator.push(delta({ index: 0, id: 'a', name: 'one', argumentsDelta: '{"n":1}' }))
    accumulator.push(delta({ index: 0, id: 'b', name: 'two', argumentsDelta: '{"n":2}' }))
    expect(accumulator.calls().map(call => [call.id, call.function.name, call.function.arguments]))
      .toEqual([['a', 'one', '{"n":1}'], ['b', 'two', '{"n":2}']])
  })

  it('keeps a call whose arguments never completed', () => {
    const accumulator = createToolCallAccumulator()
    accumulator.push(delta({ index: 0, id: 'a', name: 'weather', argumentsDelta: '{"city":"Par' }))
    expect(accumulator.calls()).toEqual([{ id: 'a', type: 'function', function: { name: 'weather', arguments: '{"city":"Par' } }])
  })
})
