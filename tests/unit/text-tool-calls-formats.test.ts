import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ToolDefinition } from '#shared/types/chat'
import { createTextToolCallStream, describeToolsForTextMode, parseTextToolCalls, type ParsedTextToolCall } from '#shared/tools/text-tool-calls'

const toolNames = ['get_weather', 'search']

function decoded(calls: ParsedTextToolCall[]): Array<{ name: string, arguments: unknown }> {
  return calls.map(call => ({ name: call.name, arguments: JSON.parse(call.arguments) }))
}

function streamAll(chunks: string[], names = toolNames): { deltas: string[], calls: ParsedTextToolCall[] } {
  const stream = createTextToolCallStream({ toolNames: names })
  const deltas: string[] = []
  const calls: ParsedTextToolCall[] = []
  for (const chunk of [...chunks.map(chunk => stream.push(chunk)), stream.flush()]) {
    if (chunk.text) deltas.push(chunk.text)
    calls.push(...chunk.calls)
  }
  return { deltas, calls }
}

describe('required syntaxes', () => {
  it('reads Qwen3-Coder <function=…> blocks, with or without <tool_call>, decoding non-string values', () => {
    const block = '<function=get_weather>\n<parameter=city>\nSan José\n</parameter>\n<parameter=days>\n3\n</parameter>\n'
      + '<parameter=options>\n{"metric": true}\n</parameter>\n<parameter=note>\nnull island\n</parameter>\n</function>'
    const expected = [{ name: 'get_weather', arguments: { city: 'San José', days: 3, options: { metric: true }, note: 'null island' } }]
    expect(decoded(parseTextToolCalls(`<tool_call>\n${block}\n</tool_call>`, { toolNames }).calls)).toEqual(expected)
    const bare = parseTextToolCalls(`Checking.\n${block}`, { toolNames })
    expect(decoded(bare.calls)).toEqual(expected)
    expect(bare.content).toBe('Checking.')
  })

  it('keeps a Qwen3-Coder value as a string when the tool schema declares a string', () => {
    const tools: ToolDefinition[] = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { code: { type: 'string' } } } } }]
    const text = '<function=lookup>\n<parameter=code>\n123\n</parameter>\n</function>'
    expect(decoded(parseTextToolCalls(text, { toolNames: ['lookup'], tools }).calls)).toEqual([{ name: 'lookup', arguments: { code: '123' } }])
    expect(decoded(parseTextToolCalls(text, { toolNames: ['lookup'] }).calls)).toEqual([{ name: 'lookup', arguments: { code: 123 } }])
  })

  it('reads Hermes <tool_call> JSON, keeps the prose and decodes stringified arguments', () => {
    const result = parseTextToolCalls('Let me look.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>\n'
      + '<tool_call>{"name": "search", "arguments": "{\\"q\\": \\"fjords\\"}"}</tool_call>', { toolNames })
    expect(result.content).toBe('Let me look.')
    expect(decoded(result.calls)).toEqual([
      { name: 'get_weather', arguments: { city: 'Oslo' } },
      { name: 'search', arguments: { q: 'fjords' } },
    ])
  })

  it('reads a bare JSON array of calls, a single {name, parameters} object and both inside a ```json fence', () => {
    const array = '[{"name": "get_weather", "arguments": {"city": "Lima"}}, {"name": "search", "arguments": {"q": "ceviche"}}]'
    expect(decoded(parseTextToolCalls(array, { toolNames }).calls).map(call => call.name)).toEqual(['get_weather', 'search'])
    const single = '{"name": "get_weather", "parameters": {"city": "Lima"}}'
    expect(decoded(parseTextToolCalls(single, { toolNames }).calls)).toEqual([{ name: 'get_weather', arguments: { city: 'Lima' } }])
    const fenced = parseTextToolCalls(`I will call it:\n\`\`\`json\n${array}\n\`\`\`\nDone.`, { toolNames })
    expect(fenced.calls).toHaveLength(2)
    expect(fenced.content).toBe('I will call it:\n\nDone.')
  })

  it('reads Mistral [TOOL_CALLS] in both generations', () => {
    const old = parseTextToolCalls('[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Nice"}}]', { toolNames })
    expect(decoded(old.calls)).toEqual([{ name: 'get_weather', arguments: { city: 'Nice' } }])
    const v11 = parseTextToolCalls('Sure[TOOL_CALLS]get_weather{"city": "Nice"}[TOOL_CALLS]search[ARGS]{"q": "socca"}', { toolNames })
    expect(v11.content).toBe('Sure')
    expect(decoded(v11.calls)).toEqual([{ name: 'get_weather', arguments: { city: 'Nice' } }, { name: 'search', arguments: { q: 'socca' } }])
  })

  it('reads Llama <|python_tag|> JSON with "parameters"', () => {
    const result = parseTextToolCalls('<|python_tag|>{"name": "search", "parameters": {"q": "llamas"}}<|eom_id|>', { toolNames })
    expect(decoded(result.calls)).toEqual([{ name: 'search', arguments: { q: 'llamas' } }])
    expect(result.content).toBe('')
  })
})

describe('other syntaxes', () => {
  it.each([
    ['pythonic list', '[get_weather(city=\'Rome\', days=2), search(q="pasta", exact=True)]'],
    ['DeepSeek V3.1', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city":"Rome","days":2}<｜tool▁call▁end｜><｜tool▁call▁begin｜>search<｜tool▁sep｜>{"q":"pasta","exact":true}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'],
    ['GLM', '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Rome</arg_value>\n<arg_key>days</arg_key>\n<arg_value>2</arg_value>\n</tool_call><tool_call>search<arg_key>q</arg_key><arg_value>pasta</arg_value><arg_key>exact</arg_key><arg_value>true</arg_value></tool_call>'],
    ['LFM2', '<|tool_call_start|>[get_weather(city="Rome", days=2), search(q="pasta", exact=true)]<|tool_call_end|>'],
    ['FunctionGemma', '<start_function_call>call:get_weather{city:<escape>Rome<escape>,days:2}<end_function_call><start_function_call>call:search{q:<escape>pasta<escape>,exact:true}<end_function_call>'],
  ])('reads %s calls', (_syntax, text) => {
    expect(decoded(parseTextToolCalls(text, { toolNames }).calls)).toEqual([
      { name: 'get_weather', arguments: { city: 'Rome', days: 2 } },
      { name: 'search', arguments: { q: 'pasta', exact: true } },
    ])
  })
})

describe('what stays text', () => {
  it('leaves calls to tools that were not offered as text', () => {
    const array = '[{"name": "delete_everything", "arguments": {}}]'
    expect(parseTextToolCalls(array, { toolNames })).toEqual({ content: array, calls: [] })
    const tagged = '<tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>'
    expect(parseTextToolCalls(tagged, { toolNames })).toEqual({ content: tagged, calls: [] })
  })

  it('drops only the unknown call from a list that also calls an offered tool', () => {
    const result = parseTextToolCalls('[{"name": "delete_everything", "arguments": {}}, {"name": "search", "arguments": {"q": "x"}}]', { toolNames })
    expect(result.calls.map(call => call.name)).toEqual(['search'])
  })

  it('leaves JSON in prose and in ordinary code blocks alone', () => {
    for (const text of [
      'The package file says {"name": "plugboard", "version": "0.1.0"} and nothing else.',
      'Use a list like [1, 2, 3] or a link [docs](https://example.com).',
      'Example:\n```python\nrequests.post(url, json={"name": "search", "arguments": {"q": "x"}})\n```',
      '```json\n{"name": "plugboard", "private": true}\n```',
    ]) {
      expect(parseTextToolCalls(text, { toolNames })).toEqual({ content: text, calls: [] })
    }
  })

  it('keeps truncated and malformed blocks as text', () => {
    for (const text of [
      '<tool_call>{"name": "search", "arguments": {"q": "cut off',
      '<tool_call>{"name": "search", "arguments": {q: x}}</tool_call>',
      '[TOOL_CALLS]search{"q": ',
      '[search(q=\'unterminated)]',
    ]) {
      expect(parseTextToolCalls(text, { toolNames })).toEqual({ content: text, calls: [] })
    }
  })
})

describe('untrusted arguments', () => {
  it('drops __proto__, constructor and prototype keys in every syntax', () => {
    const texts = [
      '<tool_call>{"name": "search", "arguments": {"__proto__": {"polluted": true}, "q": "x", "constructor": {"prototype": {"polluted": true}}}}</tool_call>',
      '<function=search>\n<parameter=__proto__>\n{"polluted": true}\n</parameter>\n<parameter=q>\nx\n</parameter>\n</function>',
      '[search(q="x", __proto__={"polluted": True})]',
      '<tool_call>search<arg_key>__proto__</arg_key><arg_value>{"polluted": true}</arg_value><arg_key>q</arg_key><arg_value>x</arg_value></tool_call>',
    ]
    for (const text of texts) {
      const [call] = parseTextToolCalls(text, { toolNames }).calls
      expect(call?.arguments).toBe('{"q":"x"}')
      const args = JSON.parse(call!.arguments) as Record<string, unknown>
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype)
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('streaming', () => {
  it('releases prose at once and holds back only a possible opener', () => {
    const stream = createTextToolCallStream({ toolNames })
    expect(stream.push('Let me check the weather. ')).toEqual({ text: 'Let me check the weather. ', calls: [] })
    expect(stream.push('<tool_')).toEqual({ text: '', calls: [] })
    expect(stream.push('tip> is a tag')).toEqual({ text: '<tool_tip> is a tag', calls: [] })
    expect(stream.push(' and [')).toEqual({ text: ' and ', calls: [] })
    expect(stream.push('1, 2]')).toEqual({ text: '[1, 2]', calls: [] })
    expect(stream.push('<tool_call>{"name": "get_weather", ')).toEqual({ text: '', calls: [] })
    const done = stream.push('"arguments": {"city": "Bergen"}}</tool_call>')
    expect(decoded(done.calls)).toEqual([{ name: 'get_weather', arguments: { city: 'Bergen' } }])
    expect(done.text).toBe('')
    expect(stream.flush()).toEqual({ text: '', calls: [] })
  })

  it('returns held-back text that was not a call at flush', () => {
    const stream = createTextToolCallStream({ toolNames })
    expect(stream.push('see <tool_call>{"name": "search"')).toEqual({ text: 'see ', calls: [] })
    expect(stream.flush()).toEqual({ text: '<tool_call>{"name": "search"', calls: [] })
  })

  it('never emits the markup of a recognised call as text, however the output is chunked', () => {
    const markers = ['<tool_call', '</tool_call', '<function', '</function', '<parameter', '[TOOL_CALLS', '<|python_tag|>', 'tool▁call',
      '<arg_key>', '<|tool_call', 'functools[', '<function_calls>', '<start_function_call>', '"arguments"', '"parameters"', '```json']
    const corpus = JSON.parse(readFileSync(resolve(process.cwd(), 'tests/fixtures/corpora/text-tool-calls/cases.json'), 'utf8')) as {
      cases: Array<{ id: string, kind: string, text: string, expected_calls: Array<{ name: string }> | null }>
    }
    let random = 12345
    const next = (): number => {
      random = (Math.imul(random, 1103515245) + 12345) >>> 0
      return random / 4294967296
    }
    let checked = 0
    for (const entry of corpus.cases.filter(item => item.kind === 'positive')) {
      const names = entry.expected_calls!.map(call => call.name)
      const whole = parseTextToolCalls(entry.text, { toolNames: names })
      if (whole.calls.length === 0 || markers.some(marker => whole.content.includes(marker))) continue
      for (let round = 0; round < 10; round++) {
        const chunks: string[] = []
        for (let index = 0; index < entry.text.length;) {
          const size = 1 + Math.floor(next() * (round % 2 === 0 ? 4 : 24))
          chunks.push(entry.text.slice(index, index + size))
          index += size
        }
        const { deltas, calls } = streamAll(chunks, names)
        expect(calls).toEqual(whole.calls)
        for (const delta of [...deltas, deltas.join('')]) {
          expect(markers.filter(marker => delta.includes(marker)), `${entry.id}: ${JSON.stringify(delta)}`).toEqual([])
        }
      }
      checked++
    }
    expect(checked).toBeGreaterThan(200)
  })
})

describe('describeToolsForTextMode', () => {
  const tools: ToolDefinition[] = [
    { type: 'function', function: { name: 'get_weather', description: 'Current weather for a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
    { type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { q: { type: 'string' } } } } },
  ]

  it('lists each tool with its description and JSON parameters and explains the call format and tool messages', () => {
    const section = describeToolsForTextMode(tools)
    expect(section).toContain('<tool_call>{"name": "tool_name", "arguments": {')
    expect(section).toContain('### get_weather\nCurrent weather for a city.')
    expect(section).toContain(JSON.stringify(tools[0]!.function.parameters))
    expect(section).toContain('### search')
    expect(section).toMatch(/tool message/)
  })

  it('describes a format that the parser reads back', () => {
    const section = describeToolsForTextMode(tools)
    const example = /<tool_call>.*<\/tool_call>/.exec(section)![0]
    expect(decoded(parseTextToolCalls(example, { toolNames: ['tool_name'] }).calls)).toEqual([{ name: 'tool_name', arguments: { parameter: 'value' } }])
  })

  it('returns nothing when no tool is offered', () => {
    expect(describeToolsForTextMode([])).toBe('')
  })
})

describe('Qwen3-Coder parameters in hostile text', () => {
  it('reads a body of unclosed `<parameter=` in time that grows no faster than the text (100 KB vs 10 KB)', () => {
    const parse = (length: number) => parseTextToolCalls(`<tool_call>\n<function=lookup>\n${'<parameter='.repeat(length / 11)}\n</function>\n</tool_call>`, { toolNames: ['lookup'] })
    const cost = (length: number) => {
      let best = Number.POSITIVE_INFINITY
      for (let run = 0; run < 3; run++) {
        const start = performance.now()
        parse(length)
        best = Math.min(best, performance.now() - start)
      }
      return best
    }
    cost(10_000)
    expect(cost(100_000)).toBeLessThan(10 * 5 * cost(10_000) + 5)
  })
})
