import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

const SERVER = resolve(process.cwd(), 'tests/fixtures/fake-openrouter/server.mjs')
const CORPUS = resolve(process.cwd(), 'tests/fixtures/corpora/sse-streams')

let child: ChildProcess
let origin = ''
let api = ''

beforeAll(async () => {
  // PORT=0: the OS picks a free port and the server prints it.
  child = spawn(process.execPath, [SERVER], { env: { ...process.env, PORT: '0', FAKE_OPENROUTER_DELAY_MS: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  origin = await new Promise<string>((resolveUrl, reject) => {
    let output = ''
    child.stdout!.on('data', (data: Buffer) => {
      output += data.toString()
      const match = /fake-openrouter listening on (http:\/\/\S+)/.exec(output)
      if (match) resolveUrl(match[1]!)
    })
    child.once('exit', code => reject(new Error(`fake-openrouter exited with ${code}`)))
  })
  api = `${origin}/api/v1`
})

afterAll(() => {
  child?.kill('SIGTERM')
})

beforeEach(async () => {
  await fetch(`${origin}/__requests`, { method: 'DELETE' })
})

const KEY = 'sk-or-v1-fake-user-key'

function chat(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return fetch(`${api}/chat/completions`, {
    method: 'POST',
    headers: { 'authorization': `Bearer ${KEY}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'hi' }], ...body }),
  })
}

/** Content, reasoning, tool calls and errors of an SSE body, accumulated like a client would. */
function readSse(body: string) {
  let content = ''
  const errors: unknown[] = []
  const calls: { name: string, arguments: string }[] = []
  let argumentChunks = 0
  for (const block of body.split(/\n\n+/)) {
    const data = block.split('\n').filter(line => line.startsWith('data:')).map(line => line.slice(5).trim()).join('\n')
    if (!data || data === '[DONE]') continue
    const chunk = JSON.parse(data)
    if (chunk.error) errors.push(chunk.error)
    const delta = chunk.choices?.[0]?.delta ?? {}
    if (typeof delta.content === 'string') content += delta.content
    for (const call of delta.tool_calls ?? []) {
      const slot = calls[call.index] ??= { name: '', arguments: '' }
      if (call.function?.name) slot.name = call.function.name
      if (call.function?.arguments) {
        slot.arguments += call.function.arguments
        argumentChunks++
      }
    }
  }
  return { content, errors, calls, argumentChunks, sawDone: body.includes('data: [DONE]') }
}

const weatherTool = {
  type: 'function',
  function: { name: 'lookup_forecast', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city', 'days'] } },
}

describe('fake OpenRouter server', () => {
  it('answers /health', async () => {
    const response = await fetch(`${origin}/health`)
    expect(await response.json()).toEqual({ ok: true })
  })

  it('lists models in OpenRouter shape, some with tools and some without', async () => {
    const { data } = await (await fetch(`${api}/models`)).json() as { data: { id: string, supported_parameters: string[], pricing: unknown, context_length: number }[] }
    expect(data.map(model => model.id)).toEqual(expect.arrayContaining(['fake/text', 'fake/tools', 'fake/error-stream']))
    expect(data.find(model => model.id === 'fake/tools')!.supported_parameters).toContain('tools')
    expect(data.find(model => model.id === 'fake/text')!.supported_parameters).not.toContain('tools')
    expect(data.every(model => model.pricing && model.context_length > 0)).toBe(true)
  })

  it('numbers fake/echo\'s replies and quotes the last user message in them', async () => {
    const messages = [{ role: 'user', content: 'first' }, { role: 'assistant', content: 'x' }, { role: 'user', content: 'edited question' }]
    const first = await (await chat({ model: 'fake/echo', messages })).text()
    const second = await (await chat({ model: 'fake/echo', messages })).text()
    const textOf = (sse: string) => sse.split('\n').filter(line => line.startsWith('data: {')).map(line => JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? '').join('')
    expect(textOf(first)).toMatch(/^Reply (\d+) to: edited question$/)
    expect(Number(/Reply (\d+)/.exec(textOf(second))![1])).toBe(Number(/Reply (\d+)/.exec(textOf(first))![1]) + 1)
  })

  it('replays the recorded OpenRouter text stream for fake/text', async () => {
    const response = await chat({ model: 'fake/text' })
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const body = await response.text()
    const recording = readFileSync(resolve(CORPUS, 'llm-openrouter/test_prompt.1.sse'), 'utf8')
    expect(body).toContain(': OPENROUTER PROCESSING')
    expect(readSse(body).content).toBe(readSse(recording).content)
    expect(readSse(body).content).toBe('Pebbles and Skipper.')
    expect(readSse(body).sawDone).toBe(true)
  })

  it('behaves like fake/text for any other model', async () => {
    expect(readSse(await (await chat({ model: 'someone/else' })).text()).content).toBe('Pebbles and Skipper.')
  })

  it('calls the first offered tool with arguments fitted to its schema, streamed in fragments', async () => {
    const body = await (await chat({ model: 'fake/tools', tools: [weatherTool, { type: 'function', function: { name: 'other', parameters: { type: 'object' } } }] })).text()
    const { calls, argumentChunks } = readSse(body)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.name).toBe('lookup_forecast')
    expect(JSON.parse(calls[0]!.arguments)).toEqual({ city: 'San Francisco', days: 1 })
    expect(argumentChunks).toBeGreaterThan(3)
    expect(body).toContain('"finish_reason":"tool_calls"')
  })

  it('answers with the tool result once the last message is a tool result', async () => {
    const body = await (await chat({
      model: 'fake/tools',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'forecast?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup_forecast', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'Sunny, 21 °C' },
      ],
    })).text()
    expect(readSse(body)).toMatchObject({ content: 'The tool returned: Sunny, 21 °C', calls: [] })
  })

  it('calls fetch_web_page with the URL of the message for fake/fetch-page, then answers with the page\'s text', async () => {
    const fetchTool = { type: 'function', function: { name: 'fetch_web_page', parameters: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } } }
    const call = readSse(await (await chat({ model: 'fake/fetch-page', tools: [weatherTool, fetchTool], messages: [{ role: 'user', content: 'Read http://127.0.0.1:9/otters please' }] })).text())
    expect(call.calls.map(entry => [entry.name, JSON.parse(entry.arguments)])).toEqual([['fetch_web_page', { url: 'http://127.0.0.1:9/otters' }]])
    const answer = readSse(await (await chat({
      model: 'fake/fetch-page',
      tools: [fetchTool],
      messages: [
        { role: 'user', content: 'Read http://127.0.0.1:9/otters please' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'fetch_web_page', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'Title: Otters\nURL: http://127.0.0.1:9/otters\n\nOtters hold hands.' },
      ],
    })).text())
    expect(answer.content).toBe('I read the page. It says: Otters hold hands.')
    expect(readSse(await (await chat({ model: 'fake/fetch-page', tools: [weatherTool] })).text()).content).toMatch(/fetch_web_page was not offered/)
  })

  it('streams a recorded error mid-stream for fake/error-stream', async () => {
    const { errors } = readSse(await (await chat({ model: 'fake/error-stream' })).text())
    expect(errors).toEqual([{ code: 400, message: 'Token limit reached' }])
  })

  it('embeds the URLs of the last user message as images for fake/remote-image, and links the first', async () => {
    const messages = [{ role: 'user', content: 'Show https://127.0.0.1:9/a.png?d=1 and http://127.0.0.1:9/b.png' }]
    const { content } = readSse(await (await chat({ model: 'fake/remote-image', messages })).text())
    expect(content).toContain('![Chart 1 of 2](https://127.0.0.1:9/a.png?d=1)')
    expect(content).toContain('![Chart 2 of 2](http://127.0.0.1:9/b.png)')
    expect(content).toContain('[the report](https://127.0.0.1:9/a.png?d=1)')
  })

  it('lists the tools it received for fake/echo-tools', async () => {
    expect(readSse(await (await chat({ model: 'fake/echo-tools', tools: [weatherTool] })).text()).content).toBe('Tools received: lookup_forecast.')
    expect(readSse(await (await chat({ model: 'fake/echo-tools' })).text()).content).toBe('Tools received: no tools.')
  })

  it.each([
    ['fake/401', 401, 'No auth credentials found'],
    ['fake/402', 402, 'Insufficient credits'],
    ['fake/429', 429, 'Rate limit exceeded'],
    ['fake/unknown', 404, 'No endpoints found for fake/unknown.'],
  ])('answers %s with HTTP %i and an OpenRouter error body', async (model, status, message) => {
    const response = await chat({ model })
    expect(response.status).toBe(status)
    const body = await response.json() as { error: { code: number, message: string } }
    expect(body.error.code).toBe(status)
    expect(body.error.message).toContain(message)
    if (status === 429) expect(response.headers.get('retry-after')).toBe('7')
  })

  it('refuses a chat request without an Authorization header, like OpenRouter', async () => {
    const response = await fetch(`${api}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'fake/text', messages: [] }) })
    expect(response.status).toBe(401)
  })

  it('records each chat request with its body and headers, and clears them on DELETE', async () => {
    await (await chat({ model: 'fake/text' }, { 'http-referer': 'https://plugboard.test', 'x-title': 'Plugboard' })).text()
    const recorded = await (await fetch(`${origin}/__requests`)).json() as { body: { model: string }, headers: Record<string, string> }[]
    expect(recorded).toHaveLength(1)
    expect(recorded[0]!.body.model).toBe('fake/text')
    expect(recorded[0]!.headers).toMatchObject({ 'authorization': `Bearer ${KEY}`, 'http-referer': 'https://plugboard.test', 'x-title': 'Plugboard' })
    await fetch(`${origin}/__requests`, { method: 'DELETE' })
    expect(await (await fetch(`${origin}/__requests`)).json()).toEqual([])
  })

  it('answers a CORS preflight from any origin with the headers the app sends', async () => {
    const response = await fetch(`${api}/chat/completions`, {
      method: 'OPTIONS',
      headers: { 'origin': 'http://127.0.0.1:3123', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,http-referer,x-title' },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const allowed = response.headers.get('access-control-allow-headers')!.toLowerCase()
    for (const header of ['authorization', 'content-type', 'http-referer', 'x-title']) expect(allowed).toContain(header)
  })

  it('returns one JSON completion when stream is false', async () => {
    const response = await chat({ model: 'fake/tools', tools: [weatherTool], stream: false })
    const completion = await response.json() as { choices: { message: { tool_calls: { function: { name: string, arguments: string } }[] }, finish_reason: string }[] }
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls')
    expect(completion.choices[0]!.message.tool_calls[0]!.function.name).toBe('lookup_forecast')
  })
})
