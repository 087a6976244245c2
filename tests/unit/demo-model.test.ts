import { describe, expect, it } from 'vitest'
import { parseDemoRequest } from '~~/server/utils/demo-model/demo-request'
import type { DemoRequest, DemoTool } from '~~/server/utils/demo-model/demo-request'
import { detectDemoIntents } from '~~/server/utils/demo-model/demo-intents'
import { planDemoReply } from '~~/server/utils/demo-model/demo-plan'
import { prepareDemoReply } from '~~/server/utils/demo-model/demo-reply'
import { createDemoSseStream } from '~~/server/utils/demo-model/demo-sse-stream'
import { DEMO_LABEL } from '~~/server/utils/demo-model/demo-replies'
import type { DemoFrame } from '~~/server/utils/demo-model/demo-frames'

function tool(name: string, properties: Record<string, unknown> = {}, required: string[] = []): DemoTool {
  return { type: 'function', function: { name, description: name, parameters: { type: 'object', properties, required } } }
}

const calculate = tool('calculate', { expression: { type: 'string' } }, ['expression'])
const currentTime = tool('get_current_time', { timezone: { type: 'string' } })
const weather = tool('get_weather', { city: { type: 'string' } }, ['city'])
const searchHistory = tool('search_chat_history', { query: { type: 'string' } }, ['query'])
const ALL_TOOLS = [calculate, currentTime, weather, searchHistory]

function ask(text: string, tools: DemoTool[] = ALL_TOOLS): DemoRequest {
  return { messages: [{ role: 'user', content: text }], tools, stream: true }
}

function callsOf(request: DemoRequest) {
  return planDemoReply(request).toolCalls.map(call => ({ name: call.name, arguments: JSON.parse(call.arguments) }))
}

/** What a client accumulates from the stream frames: text, reasoning, calls by index, finish, error. */
function accumulate(frames: DemoFrame[]) {
  let text = ''
  let reasoning = ''
  let finish: string | undefined
  let error: unknown
  let usage: unknown
  let sawDone = false
  const calls: { id: string, name: string, arguments: string, fragments: number }[] = []
  for (const frame of frames) {
    if (frame.data === '[DONE]') {
      sawDone = true
      continue
    }
    const chunk = frame.data as any
    if (chunk.error) error = chunk.error
    if (chunk.usage) usage = chunk.usage
    const choice = chunk.choices?.[0]
    if (!choice) continue
    if (choice.finish_reason) finish = choice.finish_reason
    if (typeof choice.delta.content === 'string') text += choice.delta.content
    if (typeof choice.delta.reasoning === 'string') reasoning += choice.delta.reasoning
    for (const delta of choice.delta.tool_calls ?? []) {
      const slot = calls[delta.index] ??= { id: '', name: '', arguments: '', fragments: 0 }
      if (delta.id) slot.id = delta.id
      if (delta.function?.name) slot.name = delta.function.name
      if (delta.function?.arguments) {
        slot.arguments += delta.function.arguments
        slot.fragments++
      }
    }
  }
  return { text, reasoning, finish, error, usage, sawDone, calls }
}

describe('demo model script: which tool for which prompt', () => {
  it.each([
    ['what is 12*7', 'calculate', { expression: '12*7' }],
    ['What is 12 x 7?', 'calculate', { expression: '12*7' }],
    ['calculate sqrt(16) + 2', 'calculate', { expression: 'sqrt(16) + 2' }],
    ['convert 5 km to mi', 'calculate', { expression: '5 km to mi' }],
    ['what time is it in Tokyo?', 'get_current_time', { timezone: 'Asia/Tokyo' }],
    ['what time is it', 'get_current_time', {}],
    ['what is the weather in Lisbon today', 'get_weather', { city: 'Lisbon' }],
    ['search my chats for cats and dogs', 'search_chat_history', { query: 'cats and dogs' }],
  ])('calls the right tool for %j', (prompt, name, args) => {
    expect(callsOf(ask(prompt))).toEqual([{ name, arguments: args }])
  })

  it('makes two calls in one turn when the prompt asks two things', () => {
    expect(callsOf(ask('what is 2+2 and what time is it in Paris'))).toEqual([
      { name: 'calculate', arguments: { expression: '2+2' } },
      { name: 'get_current_time', arguments: { timezone: 'Europe/Paris' } },
    ])
  })

  it('does not mistake a question without numbers for arithmetic', () => {
    expect(detectDemoIntents('what is Plugboard?')).toEqual([])
    expect(detectDemoIntents('what happened on 2024-01-01')).toEqual([])
  })

  it('calls a test tool the user names, with the JSON that follows or {}', () => {
    const tools = [...ALL_TOOLS, tool('slow_tool'), tool('failing_tool')]
    expect(callsOf(ask('call slow_tool', tools))).toEqual([{ name: 'slow_tool', arguments: {} }])
    expect(callsOf(ask('use failing_tool with {"a":1, "nested":{"b":"}"}}', tools))).toEqual([
      { name: 'failing_tool', arguments: { a: 1, nested: { b: '}' } } },
    ])
  })

  it('drops __proto__ from JSON the user types', () => {
    const tools = [tool('echo_tool')]
    const [call] = callsOf(ask('use echo_tool with {"__proto__":{"polluted":true},"ok":1}', tools))
    expect(call).toEqual({ name: 'echo_tool', arguments: { ok: 1 } })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('maps arguments onto the names the offered schema uses', () => {
    const calc = tool('calculate', { expr: { type: 'string' } }, ['expr'])
    expect(callsOf(ask('what is 3*3', [calc]))).toEqual([{ name: 'calculate', arguments: { expr: '3*3' } }])
  })
})

describe('demo model script: only offered tools are called', () => {
  it('says the tool is switched off instead of calling it', () => {
    const plan = planDemoReply(ask('what is 12*7', [currentTime]))
    expect(plan.toolCalls).toEqual([])
    expect(plan.text).toContain('The `calculate` tool is switched off; enable it in the tool popover')
  })

  it('calls nothing when tool_choice is none', () => {
    const plan = planDemoReply({ ...ask('what is 12*7'), tool_choice: 'none' })
    expect(plan.toolCalls).toEqual([])
    expect(plan.scenario).toBe('tools-off')
  })

  it('calls the offered half of a two-part question and names the other', () => {
    const plan = planDemoReply(ask('what is 2+2 and what is the weather in Oslo', [calculate]))
    expect(plan.toolCalls.map(call => call.name)).toEqual(['calculate'])
    expect(plan.text).toContain('`get_weather` tool is switched off')
  })

  it('never calls a tool that is only named but not offered', () => {
    expect(planDemoReply(ask('call slow_tool')).toolCalls).toEqual([])
  })

  it('treats "calculate 2+2" as arithmetic, not as a call with empty arguments', () => {
    expect(callsOf(ask('calculate 2+2'))).toEqual([{ name: 'calculate', arguments: { expression: '2+2' } }])
  })
})

describe('demo model script: answers', () => {
  it('answers with the tool result once the history ends with tool messages', () => {
    const request: DemoRequest = {
      messages: [
        { role: 'user', content: 'what is 12*7' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'calculate', arguments: '{"expression":"12*7"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: '84' },
      ],
      tools: ALL_TOOLS,
    }
    const plan = planDemoReply(request)
    expect(plan.toolCalls).toEqual([])
    // Rendered: "12*7 = 84 (computed with the calculate tool)."; the `*` is escaped so it never starts emphasis.
    expect(plan.text).toContain('12\\*7 = **84** (computed with the `calculate` tool).')
    expect(plan.text).toContain(DEMO_LABEL)
  })

  it('answers every result of a parallel turn and quotes a failure', () => {
    const request: DemoRequest = {
      messages: [
        { role: 'user', content: 'what is 2+2 and what time is it in Paris' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'calculate', arguments: '{"expression":"2+2"}' } },
            { id: 'b', type: 'function', function: { name: 'get_current_time', arguments: '{"timezone":"Europe/Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'a', content: '{"result":4}' },
        { role: 'tool', tool_call_id: 'b', content: 'Error: timed out after 10000 ms' },
      ],
    }
    const { text } = planDemoReply(request)
    expect(text).toContain('2+2 = **4**')
    expect(text).toContain('The `get_current_time` tool failed: "Error: timed out after 10000 ms"')
  })

  it('gives the Plugboard introduction with a list, a code block and the 12*7 suggestion otherwise', () => {
    const { text, scenario } = planDemoReply(ask('hello there'))
    expect(scenario).toBe('intro')
    expect(text).toContain('**Plugboard**')
    expect(text).toMatch(/^- /m)
    expect(text).toContain('```ts')
    expect(text).toContain('what is 12\\*7')
    expect(text).toContain(DEMO_LABEL)
  })

  it('replies identically to the same request', () => {
    const first = prepareDemoReply(ask('what is 2+2 and what time is it in Paris'), 1_700_000_000)
    const second = prepareDemoReply(ask('what is 2+2 and what time is it in Paris'), 1_700_000_000)
    expect(second).toEqual(first)
    expect(new Set(first.plan.toolCalls.map(call => call.id)).size).toBe(2)
  })

  it('sends a markdown sampler with a table, fences, lists and a link', () => {
    const { text } = planDemoReply(ask('show me markdown'))
    expect(text).toMatch(/^\| Tool \| Arguments \| Example \|$/m)
    expect(text).toContain('```bash')
    expect(text).toMatch(/^1\. /m)
    expect(text).toContain('](https://openrouter.ai)')
  })
})

describe('demo model stream', () => {
  it('streams tool-call arguments in fragments that reassemble to valid JSON', () => {
    const { frames } = prepareDemoReply(ask('what is 2+2 and what time is it in Paris'), 0)
    const result = accumulate(frames)
    expect(result.finish).toBe('tool_calls')
    expect(result.calls.map(call => call.name)).toEqual(['calculate', 'get_current_time'])
    for (const call of result.calls) {
      expect(call.id).toMatch(/^call_demo_/)
      expect(call.fragments).toBeGreaterThan(1)
    }
    expect(JSON.parse(result.calls[0]!.arguments)).toEqual({ expression: '2+2' })
    expect(JSON.parse(result.calls[1]!.arguments)).toEqual({ timezone: 'Europe/Paris' })
    expect(result.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) })
    expect(result.sawDone).toBe(true)
  })

  it('puts id and name only in the first chunk of each call', () => {
    const { frames } = prepareDemoReply(ask('what is 12*7'), 0)
    const deltas = frames.flatMap(frame => (frame.data === '[DONE]' ? [] : ((frame.data as any).choices?.[0]?.delta?.tool_calls ?? [])))
    expect(deltas[0]).toMatchObject({ index: 0, id: expect.any(String), function: { name: 'calculate', arguments: '' } })
    expect(deltas.slice(1).every((delta: any) => delta.id === undefined && delta.function.name === undefined)).toBe(true)
  })

  it('streams the text of a reply so that the deltas join back to the whole text', () => {
    const reply = prepareDemoReply(ask('markdown'), 0)
    const result = accumulate(reply.frames)
    expect(result.text).toBe(reply.plan.text)
    expect(result.finish).toBe('stop')
    expect(reply.frames.length).toBeGreaterThan(10)
  })

  it('streams the introduction over about a second, six words at a time', () => {
    const { plan, frames } = prepareDemoReply(ask('hello'), 0)
    expect(plan.scenario).toBe('intro')
    expect(plan.wordsPerChunk).toBe(6)
    // a second or so, as a model answers: long enough to see it written, and to press Stop
    expect(frames.length * plan.chunkDelayMs).toBeGreaterThan(800)
    expect(frames.length * plan.chunkDelayMs).toBeLessThan(2_000)
  })

  it('sends an error object mid-stream for "error", after some text and without [DONE]', () => {
    const { frames } = prepareDemoReply(ask('show me an error'), 0)
    const result = accumulate(frames)
    expect(result.text.length).toBeGreaterThan(0)
    expect(frames.at(-1)).toEqual({ data: { error: { message: 'Demo: simulated provider error mid-stream', code: 502 } } })
    expect(result.sawDone).toBe(false)
  })

  it('streams a long reply of about 2,500 words for "long", for over 10 s, in a few words per chunk', () => {
    const { plan, frames } = prepareDemoReply(ask('write something long'), 0)
    const words = plan.text.split(/\s+/).filter(Boolean).length
    expect(words).toBeGreaterThan(2_200)
    expect(words).toBeLessThan(3_000)
    // long enough to stop, reload or scroll mid-reply; in 12-word chunks 60 ms apart, a quarter of the page's renders
    // that 3 words every 15 ms cost for the same stream (the demo's long reply: 7 against 10.5 CPU-s on a 2-core machine)
    expect(plan.wordsPerChunk).toBe(12)
    expect(frames.length * plan.chunkDelayMs).toBeGreaterThan(10_000)
  })

  it('streams reasoning deltas before the answer for "think"', () => {
    const { frames } = prepareDemoReply(ask('think about it'), 0)
    const result = accumulate(frames)
    expect(result.reasoning).toContain('scripted demo model')
    const firstReasoning = frames.findIndex(frame => typeof (frame.data as any).choices?.[0]?.delta?.reasoning === 'string')
    const firstText = frames.findIndex(frame => ((frame.data as any).choices?.[0]?.delta?.content ?? '') !== '')
    expect(firstReasoning).toBeGreaterThan(0)
    expect(firstReasoning).toBeLessThan(firstText)
  })

  it('gives the same reply as one JSON completion when stream is false', () => {
    const { completion } = prepareDemoReply({ ...ask('what is 12*7'), stream: false }, 0)
    expect(completion.object).toBe('chat.completion')
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls')
    expect(completion.choices[0]!.message.tool_calls).toEqual([
      { id: expect.stringMatching(/^call_demo_/), type: 'function', function: { name: 'calculate', arguments: '{"expression":"12*7"}' } },
    ])
  })

  it('encodes frames as SSE and stops at the next frame once aborted', async () => {
    const { frames } = prepareDemoReply(ask('long'), 0)
    const abort = new AbortController()
    const reader = createDemoSseStream(frames, { delayMs: 1, signal: abort.signal }).getReader()
    const decoder = new TextDecoder()
    let received = ''
    for (let index = 0; index < 3; index++) received += decoder.decode((await reader.read()).value)
    abort.abort()
    let rest = await reader.read()
    let after = 0
    while (!rest.done) {
      after++
      rest = await reader.read()
    }
    expect(received.startsWith('data: {"id":"gen-demo-')).toBe(true)
    expect(received.split('\n\n').filter(Boolean)).toHaveLength(3)
    expect(after).toBeLessThanOrEqual(1)
  })
})

describe('demo request validation', () => {
  it('rejects a body without messages with a message naming the field', () => {
    expect(() => parseDemoRequest({ model: 'plugboard/demo' })).toThrow(/Invalid chat request: messages:/)
    expect(() => parseDemoRequest({ messages: [] })).toThrow(/at least one message/)
  })

  it('rejects an unknown role', () => {
    expect(() => parseDemoRequest({ messages: [{ role: 'robot', content: 'hi' }] })).toThrow(/messages\.0\.role/)
  })

  it('accepts content parts and extra provider fields', () => {
    const request = parseDemoRequest({
      model: 'plugboard/demo',
      temperature: 0.2,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'what is ' }, { type: 'text', text: '6*7' }] }],
      tools: [calculate],
    })
    expect(callsOf(request)).toEqual([{ name: 'calculate', arguments: { expression: '6*7' } }])
  })
})

describe('demo model: scenarios that show the loop guards', () => {
  const calculate = { type: 'function' as const, function: { name: 'calculate', parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] } } }

  it('keeps calling calculate for "keep counting", one more each step', () => {
    const first = planDemoReply({ messages: [{ role: 'user', content: 'keep counting' }], tools: [calculate] } as never)
    expect(first.toolCalls.map(call => JSON.parse(call.arguments))).toEqual([{ expression: '0 + 1' }])
    const later = planDemoReply({
      messages: [
        { role: 'user', content: 'keep counting' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'calculate', arguments: '{"expression":"0 + 1"}' } }] },
        { role: 'tool', tool_call_id: 'a', content: '1' },
      ],
      tools: [calculate],
    } as never)
    expect(later.toolCalls.map(call => JSON.parse(call.arguments))).toEqual([{ expression: '1 + 1' }])
  })

  it('repeats the same call for "repeat yourself" until the app refuses, then says so', () => {
    const history = [
      { role: 'user', content: 'repeat yourself' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'calculate', arguments: '{"expression":"1 + 1"}' } }] },
      { role: 'tool', tool_call_id: 'a', content: '2' },
    ]
    const again = planDemoReply({ messages: history, tools: [calculate] } as never)
    expect(again.toolCalls[0]!.arguments).toBe('{"expression":"1 + 1"}')
    const refused = planDemoReply({
      messages: [...history.slice(0, 2), { role: 'tool', tool_call_id: 'a', content: 'Error: this exact call was already made 2 times in a row with the same arguments; not running it again.' }],
      tools: [calculate],
    } as never)
    expect(refused.toolCalls).toEqual([])
    expect(refused.text).toMatch(/fail|error/i)
  })
})
