// Property tests of the text tool-call parser (model output is untrusted input): whatever the text and however it
// is cut into deltas, nothing is thrown, the output is bounded by the input, and the calls and text are those of
// the text fed whole. Texts are either arbitrary characters or a soup of the pieces the syntaxes are made of
// (openers, closers, tool names, JSON and pythonic fragments), which reaches far deeper into the parsers.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { fuzzOptions } from '~~/tests/unit/helpers/fuzz-options'
import { createTextToolCallStream, type ParsedTextToolCall } from '#shared/tools/text-tool-calls'
import type { ToolDefinition } from '#shared/types/chat'

const toolNames = ['get_weather', 'search', 'calc']
const tools: ToolDefinition[] = [{ type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } } } } }]

const PIECES = [
  '<tool_call>', '</tool_call>', '<function=', '</function>', '<parameter=', '</parameter>', '<|python_tag|>', '<|eom_id|>',
  '[TOOL_CALLS]', '[/TOOL_CALLS]', '[ARGS]', '[CALL_ID]', '<|tool_call|>', 'functools[', '<｜tool▁calls▁begin｜>',
  '<｜tool▁call▁begin｜>', '<｜tool▁sep｜>', '<｜tool▁call▁end｜>', '<｜tool▁calls▁end｜>', '<|tool▁outputs▁begin|>',
  '<|tool_call_start|>', '<|tool_call_end|>', '<function_calls>', '</function_calls>', '<start_function_call>',
  '<end_function_call>', '<|tool_call>', '<tool_call|>', 'call:', '<escape>', '<|"|>', '<minimax:tool_call>',
  '</minimax:tool_call>', '<invoke name=', '</invoke>', '<parameter name=', '<arg_key>', '</arg_key>', '<arg_value>',
  '</arg_value>', '<longcat_arg_key>', '```', '```json\n', '\n```', 'json', '{', '}', '[', ']', '(', ')', '"', '\'', '\\',
  ':', ',', ';', '=', '>', '<', ' ', '\n', '\t', 'get_weather', 'search', 'calc', 'unknown_tool', '"name"', '"arguments"',
  '"parameters"', '"function"', '"city"', '"Paris"', '1', '-2.5e3', 'true', 'None', 'null', 'city=', 'query="x"',
  '{"name": "get_weather", "arguments": {"city": "Oslo"}}', '[search(query="a")]', '__proto__', '"__proto__"', 'é', '😀',
  '\u0000', '\u2028', 'text ',
]

const soup = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map(pieces => pieces.join(''))
const anyText = fc.string({ unit: 'binary', maxLength: 300 })
/** Soups with long runs in them, so that held blocks pass the length past which they are read again only once grown. */
const longSoup = fc.array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.constantFrom('x'.repeat(700), ' '.repeat(600), '"long text" '.repeat(60), '{"k": 1}, '.repeat(80)) }), { maxLength: 40 })
  .map(pieces => pieces.join(''))
/** Delta sizes, used in turn until the text is used up. */
const deltaSizes = fc.array(fc.integer({ min: 1, max: 16 }), { minLength: 1, maxLength: 20 })

function cut(text: string, sizes: number[]): string[] {
  const deltas: string[] = []
  for (let index = 0, turn = 0; index < text.length; turn++) {
    const size = sizes[turn % sizes.length]!
    deltas.push(text.slice(index, index + size))
    index += size
  }
  return deltas
}

function run(deltas: string[]): { text: string, calls: ParsedTextToolCall[] } {
  const stream = createTextToolCallStream({ toolNames, tools })
  let text = ''
  const calls: ParsedTextToolCall[] = []
  for (const delta of [...deltas.map(piece => stream.push(piece)), stream.flush()]) {
    text += delta.text
    calls.push(...delta.calls)
  }
  return { text, calls }
}

function expectBounded(input: string, output: { text: string, calls: ParsedTextToolCall[] }): void {
  expect(output.text.length).toBeLessThanOrEqual(input.length)
  expect(output.calls.length).toBeLessThanOrEqual(input.length)
  // Arguments are re-encoded as JSON: a control character written raw takes six characters as an escape.
  const argumentChars = output.calls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0)
  expect(argumentChars).toBeLessThanOrEqual(6 * input.length + 2 * output.calls.length)
  for (const call of output.calls) expect(toolNames).toContain(call.name)
}

describe('text tool-call parser, fuzzed', () => {
  it('never throws on arbitrary text in arbitrary deltas, and its output is bounded by its input (10,000 runs)', () => {
    fc.assert(fc.property(anyText, deltaSizes, (text, sizes) => {
      expectBounded(text, run(cut(text, sizes)))
    }), fuzzOptions(10_000))
  })

  it('gives the calls and text of the whole text however a soup of call syntax is cut (12,000 runs)', () => {
    fc.assert(fc.property(soup, deltaSizes, (text, sizes) => {
      const whole = run([text])
      expectBounded(text, whole)
      expect(run(cut(text, sizes))).toEqual(whole)
    }), fuzzOptions(12_000))
  })

  it('gives the calls and text of the whole text however a soup with long runs is cut (1,500 runs)', () => {
    fc.assert(fc.property(longSoup, deltaSizes, (text, sizes) => {
      const whole = run([text])
      expectBounded(text, whole)
      expect(run(cut(text, sizes))).toEqual(whole)
    }), fuzzOptions(1_500))
  })

  it('gives the calls and text of the whole text when a soup arrives one character at a time (4,000 runs)', () => {
    fc.assert(fc.property(soup, (text) => {
      expect(run([...text])).toEqual(run([text]))
    }), fuzzOptions(4_000))
  })

  it('gives the calls and text of the whole text for arbitrary text in arbitrary deltas (6,000 runs)', () => {
    fc.assert(fc.property(anyText, deltaSizes, (text, sizes) => {
      expect(run(cut(text, sizes))).toEqual(run([text]))
    }), fuzzOptions(6_000))
  })
})

describe('text tool-call parser: what the fuzzing found', () => {
  it.each([
    ['a call nested in a JSON object of the prose stays text, streamed as whole', 'Config: {"a": {"name": "get_weather", "arguments": {"city": "Oslo"}}} done'],
    ['a pythonic list after Granite\'s token (not JSON) stays text, streamed as whole', '<|tool_call|>[search(query="a")]'],
  ])('%s', (_, text) => {
    expect(run([text])).toEqual({ text, calls: [] })
    expect(run([...text])).toEqual({ text, calls: [] })
  })

  it('holds the text after an unclosed bracket back for at most 1,024 characters', () => {
    const stream = createTextToolCallStream({ toolNames })
    const prose = `Use { to open a block. ${'More words. '.repeat(100)}`
    let shown = ''
    for (const delta of cut(prose, [8])) shown += stream.push(delta).text
    expect(shown.length).toBeGreaterThanOrEqual(prose.length - 1_024 - 8)
    expect(shown + stream.flush().text).toBe(prose)
  })
})
