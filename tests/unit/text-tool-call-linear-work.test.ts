// The text tool-call parser's work over a stream grows linearly with the stream, measured deterministically as in
// demo-linear-work.test.ts: regular-expression steps and the characters that string built-ins scan
// (tests/unit/helpers/measure-work.ts), plus the characters the balanced JSON scans read (counted here, since their
// loops call nothing the meter sees). Every case streams in 8-character deltas, as a model's tokens arrive. A parser
// that reads its whole buffer again on each delta shows 16 from n to 4n; linear work shows at most 4, plus an
// eighth for a held block that is read again once it has grown by an eighth.
import { describe, expect, it, vi } from 'vitest'
import { measureWork } from '~~/tests/unit/helpers/measure-work'
import { createTextToolCallStream, parseTextToolCalls, type ParsedTextToolCall } from '#shared/tools/text-tool-calls'

const balanced = vi.hoisted(() => ({ characters: 0 }))

vi.mock('#shared/tools/text-tool-calls/safe-json', async (importOriginal) => {
  const original = await importOriginal<typeof import('#shared/tools/text-tool-calls/safe-json')>()
  return {
    ...original,
    scanBalanced: (text: string, start: number) => {
      const scan = original.scanBalanced(text, start)
      balanced.characters += (scan.complete ? scan.end : text.length) - start
      return scan
    },
    continueBracketReading: (...[text, reading, offset, closes]: Parameters<typeof original.continueBracketReading>) => {
      const from = reading.index
      original.continueBracketReading(text, reading, offset, closes)
      balanced.characters += reading.index - from
    },
  }
})

const toolNames = ['calculate', 'get_weather']
const DELTA = 8

function deltasOf(text: string): string[] {
  return Array.from({ length: Math.ceil(text.length / DELTA) }, (_, index) => text.slice(index * DELTA, (index + 1) * DELTA))
}

function streamed(text: string, deltas = deltasOf(text)): { calls: ParsedTextToolCall[], work: number } {
  balanced.characters = 0
  const { result, work } = measureWork(() => {
    const stream = createTextToolCallStream({ toolNames })
    const calls = deltas.flatMap(delta => stream.push(delta).calls)
    return [...calls, ...stream.flush().calls]
  })
  return { calls: result, work: work + balanced.characters }
}

const long = (n: number) => 'a'.repeat(n)

/** Streams of about n characters, each holding one block back for its whole length. */
const STREAMS: [string, (n: number) => string, number][] = [
  ['"{" and then only spaces (the first key never comes)', n => `{${' '.repeat(n)}`, 0],
  ['"[" and then only spaces', n => `[${' '.repeat(n)}`, 0],
  ['"<tool_call>" and then only spaces', n => `<tool_call>${' '.repeat(n)}`, 0],
  ['a bare JSON call with a long string argument', n => `{"name": "calculate", "arguments": {"expression": "${long(n)}"}}`, 1],
  ['a bare JSON call that never closes', n => `{"name": "calculate", "arguments": {"expression": "${long(n)}`, 0],
  ['a Hermes <tool_call> with a long argument', n => `<tool_call>{"name": "calculate", "arguments": {"expression": "${long(n)}"}}</tool_call>`, 1],
  ['a Qwen3-Coder <function=…> with a long parameter', n => `<function=calculate><parameter=expression>${long(n)}</parameter></function>`, 1],
  ['a JSON code fence with a long argument', n => `\`\`\`json\n[{"name": "calculate", "arguments": {"expression": "${long(n)}"}}]\n\`\`\``, 1],
  ['a pythonic list with a long argument', n => `[calculate(expression="${long(n)}")]`, 1],
  ['LFM2 tokens around a pythonic call', n => `<|tool_call_start|>[calculate(expression="${long(n)}")]<|tool_call_end|>`, 1],
  ['DeepSeek V3.1 tokens', n => `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>calculate<｜tool▁sep｜>{"expression": "${long(n)}"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`, 1],
  ['a MiniMax <invoke>', n => `<minimax:tool_call><invoke name="calculate"><parameter name="expression">${long(n)}</parameter></invoke></minimax:tool_call>`, 1],
  ['a FunctionGemma call', n => `<start_function_call>call:calculate{expression:<escape>${long(n)}<escape>}<end_function_call>`, 1],
  ['a FunctionGemma body at the start without its tokens', n => `call:calculate{expression:<escape>${long(n)}<escape>}`, 1],
  ['a GLM body at the start without its tokens', n => `calculate<arg_key>expression</arg_key><arg_value>${long(n)}</arg_value>`, 1],
  ['Mistral name[ARGS]{…}', n => `[TOOL_CALLS]calculate[ARGS]{"expression": "${long(n)}"}`, 1],
  ['a Mistral [TOOL_CALLS] array', n => `[TOOL_CALLS][{"name": "calculate", "arguments": {"expression": "${long(n)}"}}]`, 1],
  ['Llama <|python_tag|> JSON', n => `<|python_tag|>{"name": "calculate", "parameters": {"expression": "${long(n)}"}}`, 1],
  ['a run of bare JSON calls', n => '{"name": "calculate", "arguments": {}}; '.repeat(n / 40), -1],
  ['a run of unclosed "{"', n => '{'.repeat(n), 0],
  ['prose full of brackets and tags', n => 'a [b] {c} <d> `e` '.repeat(n / 18), 0],
]

describe('the work meter', () => {
  it('sees a parser that reads its whole buffer again on every delta go quadratic, so a passing test below means something', () => {
    const rescanning = (n: number) => {
      const text = `{"name": "calculate", "arguments": {"expression": "${long(n)}"}}`
      balanced.characters = 0
      const { work } = measureWork(() => {
        for (let end = DELTA; end < text.length + DELTA; end += DELTA) parseTextToolCalls(text.slice(0, end), { toolNames })
      }, { maxWork: 200_000_000 })
      return work + balanced.characters
    }
    expect(rescanning(2_000) / rescanning(500)).toBeGreaterThan(12)
  })
})

describe('text tool-call parsing work grows linearly with the stream', () => {
  it.each(STREAMS)('%s: 4 times the stream costs at most 4.5 times the work', (_, build, expectedCalls) => {
    const [small, large] = [streamed(build(4_000)), streamed(build(16_000))]
    if (expectedCalls >= 0) expect(large.calls).toHaveLength(expectedCalls)
    expect(large.work / small.work).toBeLessThanOrEqual(4.5)
  })
})

describe('text tool-call parsing work grows linearly with a reply that comes in one piece', () => {
  it.each([
    ['unclosed "{"', (n: number) => '{'.repeat(n)],
    ['unclosed "[{"', (n: number) => '[{'.repeat(n / 2)],
    ['objects that never close and are not calls', (n: number) => '{"a": '.repeat(n / 6)],
    ['JSON code fences that are not calls', (n: number) => '```json\n{'.repeat(n / 9)],
  ])('%s: 4 times the text costs at most 4 times the work', (_, build) => {
    const [small, large] = [build(4_000), build(16_000)].map(text => streamed(text, [text]))
    expect(large!.work / small!.work).toBeLessThanOrEqual(4.5)
  })
})
