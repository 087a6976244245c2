// The other per-delta paths of a reply grow linearly with it, measured as in text-tool-call-linear-work.test.ts:
// regular-expression steps and the characters that scanning built-ins read (tests/unit/helpers/measure-work.ts),
// deltas of 8 characters. Work that reads everything so far again on each delta shows 16 from n to 4n.
import { describe, expect, it } from 'vitest'
import { measureWork, measureWorkAsync } from '~~/tests/unit/helpers/measure-work'
import { createThinkTagSplitter } from '#shared/stream/think-tag-splitter'
import { createToolCallAccumulator, type ToolCallDeltaEvent } from '#shared/tools/tool-call-accumulator'
import { readChatStream } from '#shared/stream/read-chat-stream'

const DELTA = 8

function deltasOf(text: string): string[] {
  return Array.from({ length: Math.ceil(text.length / DELTA) }, (_, index) => text.slice(index * DELTA, (index + 1) * DELTA))
}

function ratio(work: (n: number) => number): number {
  return work(16_000) / work(4_000)
}

describe('think-tag splitter', () => {
  const split = (text: string) => measureWork(() => {
    const splitter = createThinkTagSplitter()
    const parts = deltasOf(text).map(delta => splitter.push(delta))
    parts.push(splitter.flush())
    return { text: parts.map(part => part.text).join(''), reasoning: parts.map(part => part.reasoning).join('') }
  })

  it.each([
    ['white space before the reply (the splitter waits to see whether <think> comes)', (n: number) => `${' \n'.repeat(n / 2)}answer`],
    ['a long <think> block', (n: number) => `<think>${'x'.repeat(n)}</think>\n\nanswer`],
    ['a long reply without a block', (n: number) => 'y'.repeat(n)],
  ])('%s: 4 times the reply costs at most 4 times the work', (_, build) => {
    expect(ratio(n => split(build(n)).work)).toBeLessThanOrEqual(4)
    const { result } = split(build(100))
    expect(result.text + result.reasoning).toContain(build(100).includes('answer') ? 'answer' : 'y')
  })
})

describe('tool-call accumulator', () => {
  const accumulate = (events: ToolCallDeltaEvent[]) => measureWork(() => {
    const accumulator = createToolCallAccumulator({ idPrefix: 'call' })
    for (const event of events) accumulator.push(event)
    return accumulator.calls()
  })
  const argumentsOf = (n: number) => `{"expression": "${'1+'.repeat(n / 2)}1"}`

  it('reads a long argument string in deltas for linear work', () => {
    const events = (n: number): ToolCallDeltaEvent[] => deltasOf(argumentsOf(n)).map((delta, index) =>
      ({ type: 'tool-call-delta', index: 0, id: index === 0 ? 'call_a' : undefined, name: index === 0 ? 'calculate' : undefined, argumentsDelta: delta }))
    expect(ratio(n => accumulate(events(n)).work)).toBeLessThanOrEqual(4)
    expect(accumulate(events(100)).result.map(call => call.function.arguments)).toEqual([argumentsOf(100)])
  })

  it('asks "is the call complete?" on every delta with a new id without parsing the arguments again', () => {
    // A provider that sends a fresh id with each fragment: each one asks whether the call so far is complete JSON.
    const events = (n: number): ToolCallDeltaEvent[] => deltasOf(argumentsOf(n)).map((delta, index) =>
      ({ type: 'tool-call-delta', index: 0, id: `id_${index}`, name: index === 0 ? 'calculate' : undefined, argumentsDelta: delta }))
    expect(ratio(n => accumulate(events(n)).work)).toBeLessThanOrEqual(4)
    expect(accumulate(events(100)).result.map(call => call.function.arguments)).toEqual([argumentsOf(100)])
  })
})

describe('SSE reader', () => {
  async function read(chunks: string[]): Promise<{ events: number, work: number }> {
    const { result, work } = await measureWorkAsync(async () => {
      let events = 0
      for await (const event of readChatStream((async function* () { yield* chunks })())) if (event.type !== 'done') events++
      return events
    })
    return { events: result, work }
  }
  const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`

  it.each([
    ['one long data line in 8-byte network reads', (n: number) => deltasOf(`${chunk('z'.repeat(n))}data: [DONE]\n\n`)],
    ['many small events in 8-byte network reads', (n: number) => deltasOf(`${chunk('ab').repeat(n / 50)}data: [DONE]\n\n`)],
    ['a long comment line', (n: number) => deltasOf(`: ${'k'.repeat(n)}\n\n${chunk('a')}data: [DONE]\n\n`)],
    ['a long multi-line data field', (n: number) => deltasOf(`${'data: x\n'.repeat(n / 8)}\n${chunk('a')}data: [DONE]\n\n`)],
  ])('%s: 4 times the body costs at most 4 times the work', async (_, build) => {
    const [small, large] = [await read(build(4_000)), await read(build(16_000))]
    expect(large.events).toBeGreaterThan(0)
    expect(large.work / small.work).toBeLessThanOrEqual(4)
  })
})
