// Every input bounded: the demo route refuses bodies and counts past the limits, answers the largest request it
// accepts correctly, and its script bounds what it makes of a request (calls, answers, quoted arguments).
import * as h3 from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDemoRequest } from '~~/server/utils/demo-model/demo-request'
import type { DemoMessage, DemoRequest, DemoTool } from '~~/server/utils/demo-model/demo-request'
import { planDemoReply } from '~~/server/utils/demo-model/demo-plan'
import { DEFAULT_CHAT_BODY_LIMIT_BYTES, MAX_CHAT_MESSAGES, MAX_CHAT_TOOLS } from '~~/server/utils/http/request-limits'
import { DEMO_MAX_QUOTED_CHARS, DEMO_MAX_TOOL_CALLS, DEMO_PROMPT_WINDOW_CHARS } from '~~/server/utils/demo-model/demo-limits'
import { listenApp } from './helpers/listen-app'
import type { ListeningApp } from './helpers/listen-app'

const runtimeConfig: { maxBodyBytes?: unknown } = {}
let server: ListeningApp | undefined
let base = ''

beforeAll(async () => {
  // The route as Nitro runs it, on h3 with Nitro's auto-imports as globals (see server-routes.test.ts).
  for (const name of ['defineEventHandler', 'createError', 'getRequestHeader', 'setResponseHeader', 'setResponseHeaders', 'setResponseStatus', 'sendStream'] as const) {
    (globalThis as Record<string, unknown>)[name] = h3[name]
  }
  (globalThis as Record<string, unknown>).useRuntimeConfig = () => runtimeConfig
  const app = h3.createApp()
  const router = h3.createRouter()
  router.post('/api/demo/v1/chat/completions', (await import('~~/server/api/demo/v1/chat/completions.post')).default)
  app.use(router)
  server = await listenApp(app)
  base = server.base
})

afterAll(async () => {
  await server?.close()
})

function post(body: string) {
  return fetch(`${base}/api/demo/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
}

function tool(name: string, description = name): DemoTool {
  return { type: 'function', function: { name, description, parameters: { type: 'object', properties: { expression: { type: 'string' } } } } }
}

/**
 * The largest request the route accepts, built against the worst case found: a question, then a run of spaces
 * inside the same clause (cubic for the old clause separator), and MAX_CHAT_TOOLS tools with 64-character names
 * and long descriptions (the old named-tool matching scanned the prompt once per tool). Just under 2 MiB.
 */
function worstCaseBody(): string {
  const tools = [tool('calculate'), tool('get_current_time')]
  while (tools.length < MAX_CHAT_TOOLS) tools.push(tool(`tool_${String(tools.length).padStart(59, '0')}`, 'Does a thing. '.repeat(300)))
  const shell = (spaces: number) => JSON.stringify({
    model: 'plugboard/demo',
    stream: false,
    messages: [{ role: 'user', content: `what is 12*7 and what time is it in Tokyo${' '.repeat(spaces)}thanks` }],
    tools,
  })
  const body = shell(0)
  return shell(DEFAULT_CHAT_BODY_LIMIT_BYTES - body.length - 16)
}

describe('demo route: every input bounded', () => {
  it('answers the worst-case 2 MB request with the right calls', async () => {
    const body = worstCaseBody()
    expect(body.length).toBeGreaterThan(2_000_000)
    const response = await post(body)
    expect(response.status).toBe(200)
    const completion = await response.json() as { choices: { message: { tool_calls: { function: { name: string, arguments: string } }[] } }[] }
    expect(completion.choices[0]!.message.tool_calls.map(call => [call.function.name, JSON.parse(call.function.arguments)])).toEqual([
      ['calculate', { expression: '12*7' }],
      ['get_current_time', { timezone: 'Asia/Tokyo' }],
    ])
  })

  it('refuses more tools than MAX_CHAT_TOOLS with a 400 that says how many', async () => {
    const response = await post(JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], tools: Array.from({ length: 10_000 }, (_, index) => tool(`t${index}`)) }))
    expect(response.status).toBe(400)
    const body = await response.json() as { statusMessage: string, data: { issues: { path: string, message: string }[] } }
    expect(body.statusMessage).toBe('Validation Error')
    expect(body.data.issues).toEqual([{ path: 'tools', message: `offers 10000 tools; at most ${MAX_CHAT_TOOLS} are accepted` }])
  })

  it('refuses more messages than MAX_CHAT_MESSAGES with a 400 that says how many', async () => {
    const messages = Array.from({ length: MAX_CHAT_MESSAGES + 1 }, () => ({ role: 'user', content: 'hi' }))
    const response = await post(JSON.stringify({ messages }))
    expect(response.status).toBe(400)
    const body = await response.json() as { data: { issues: { path: string, message: string }[] } }
    expect(body.data.issues).toEqual([{ path: 'messages', message: `has ${MAX_CHAT_MESSAGES + 1} messages; at most ${MAX_CHAT_MESSAGES} are accepted` }])
  })

  it('refuses a body over the configured maxBodyBytes with 413', async () => {
    runtimeConfig.maxBodyBytes = 4_096
    try {
      const response = await post(JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(5_000) }] }))
      expect(response.status).toBe(413)
    }
    finally {
      delete runtimeConfig.maxBodyBytes
    }
  })

  it('answers malformed JSON with 400', async () => {
    const response = await post('{"messages": [')
    expect(response.status).toBe(400)
  })
})

describe('demo request validation: counts', () => {
  it('names both counts when both are over their caps', () => {
    const body = { messages: Array.from({ length: MAX_CHAT_MESSAGES + 5 }, () => ({ role: 'user', content: 'hi' })), tools: Array.from({ length: MAX_CHAT_TOOLS + 1 }, (_, index) => tool(`t${index}`)) }
    expect(() => parseDemoRequest(body)).toThrow(`Invalid chat request: messages: has ${MAX_CHAT_MESSAGES + 5} messages; at most ${MAX_CHAT_MESSAGES} are accepted; tools: offers ${MAX_CHAT_TOOLS + 1} tools; at most ${MAX_CHAT_TOOLS} are accepted`)
  })

  it('accepts exactly MAX_CHAT_TOOLS tools', () => {
    const tools = Array.from({ length: MAX_CHAT_TOOLS }, (_, index) => tool(`t${index}`))
    expect(parseDemoRequest({ messages: [{ role: 'user', content: 'hi' }], tools }).tools).toHaveLength(MAX_CHAT_TOOLS)
  })
})

describe('demo script: what it makes of a huge request is bounded', () => {
  const calculate = tool('calculate')
  const ask = (prompt: string, tools: DemoTool[] = [calculate, tool('slow_tool')]): DemoRequest => ({ messages: [{ role: 'user', content: prompt }], tools })

  it.each([
    ['a megabyte of spaces', `what is 12*7${' '.repeat(1_000_000)}`],
    ['a megabyte of digits after the question', `what is 12*7? ${'1'.repeat(1_000_000)}`],
    ['a megabyte of "=" after the expression', `calculate 12*7${'='.repeat(1_000_000)}`],
  ])('still reads the question before %s', (_, prompt) => {
    expect(planDemoReply(ask(prompt)).toolCalls.map(call => JSON.parse(call.arguments))).toEqual([{ expression: '12*7' }])
  })

  it(`makes at most ${DEMO_MAX_TOOL_CALLS} calls however many the prompt asks for`, () => {
    expect(planDemoReply(ask('call slow_tool '.repeat(100))).toolCalls).toHaveLength(DEMO_MAX_TOOL_CALLS)
    expect(planDemoReply(ask('what is 1+1? '.repeat(100))).toolCalls).toHaveLength(DEMO_MAX_TOOL_CALLS)
  })

  it(`reads the first ${DEMO_PROMPT_WINDOW_CHARS} characters of the prompt, and nothing after them`, () => {
    expect(planDemoReply(ask(`${'x'.repeat(DEMO_PROMPT_WINDOW_CHARS - 20)} what is 12*7`)).toolCalls).toHaveLength(1)
    expect(planDemoReply(ask(`${'x'.repeat(DEMO_PROMPT_WINDOW_CHARS)} what is 12*7`)).scenario).toBe('intro')
  })

  it('answers each tool result from its own call, among thousands of calls', () => {
    const calls = Array.from({ length: 5_000 }, (_, index) => ({ id: `c${index}`, type: 'function' as const, function: { name: 'calculate', arguments: JSON.stringify({ expression: `${index}+1` }) } }))
    const results: DemoMessage[] = [4_999, 0].map(index => ({ role: 'tool', tool_call_id: `c${index}`, content: String(index + 1) }))
    const { text } = planDemoReply({ messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: null, tool_calls: calls }, ...results] })
    expect(text).toContain('4999+1 = **5000**')
    expect(text).toContain('0+1 = **1**')
  })

  it(`answers at most ${DEMO_MAX_TOOL_CALLS} tool results and counts the others`, () => {
    const calls = Array.from({ length: 40 }, (_, index) => ({ id: `c${index}`, type: 'function' as const, function: { name: 'calculate', arguments: '{"expression":"1+1"}' } }))
    const results: DemoMessage[] = calls.map(call => ({ role: 'tool', tool_call_id: call.id, content: '2' }))
    const { text } = planDemoReply({ messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: null, tool_calls: calls }, ...results] })
    expect(text.match(/1\+1 = \*\*2\*\*/g)).toHaveLength(DEMO_MAX_TOOL_CALLS)
    expect(text).toContain(`(${40 - DEMO_MAX_TOOL_CALLS} more tool results not shown.)`)
  })

  it(`quotes at most ${DEMO_MAX_QUOTED_CHARS} characters of a huge argument back`, () => {
    const expression = '1+'.repeat(500_000) + '1'
    const { text } = planDemoReply({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'calculate', arguments: JSON.stringify({ expression }) } }] },
        { role: 'tool', tool_call_id: 'a', content: '500001' },
      ],
    })
    expect(text).toContain(`${expression.slice(0, DEMO_MAX_QUOTED_CHARS)}… = **500001**`)
    expect(text.length).toBeLessThan(1_000)
  })
})
