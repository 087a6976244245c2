import type { IncomingMessage, ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { ProviderError } from '#shared/errors/provider-error'
import {
  parseRetryAfter,
  providerErrorFromNetworkError,
  providerErrorFromResponse,
  providerErrorFromStreamError,
} from '#shared/stream/provider-error-from-response'
import { createOpenAICompatibleModel, fetchModels, openRouterAttributionHeaders } from '#shared/stream/openai-compatible-model'
import type { StreamEvent } from '#shared/stream/stream-event'
import { startLoopbackServer } from '~~/bench/lib/loopback-server'
import type { LoopbackServer } from '~~/bench/lib/loopback-server'

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
}

describe('providerErrorFromResponse', () => {
  it('says the key is missing or invalid on 401 (OpenAI body)', async () => {
    const error = await providerErrorFromResponse(jsonResponse(401, { error: { message: 'Incorrect API key provided: sk-xx.', type: 'invalid_request_error', code: 'invalid_api_key' } }))
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ kind: 'auth', status: 401, retryable: false, code: 'invalid_api_key', providerMessage: 'Incorrect API key provided: sk-xx.' })
    expect(error.message).toBe('The API key is missing or invalid. Check it in Settings.')
  })

  it('points to OpenRouter credits on 402 from OpenRouter', async () => {
    const error = await providerErrorFromResponse(
      jsonResponse(402, { error: { code: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits' } }),
      { baseUrl: 'https://openrouter.ai/api/v1' },
    )
    expect(error).toMatchObject({ kind: 'credits', status: 402, code: 402 })
    expect(error.message).toBe('Your OpenRouter account has no credits left. Add credits at https://openrouter.ai/settings/credits or pick a free model.')
  })

  it('honours retry-after in seconds on 429', async () => {
    const error = await providerErrorFromResponse(jsonResponse(429, { error: { code: 429, message: 'Rate limit exceeded' } }, { 'retry-after': '12' }))
    expect(error).toMatchObject({ kind: 'rate-limit', retryable: true, retryAfterMs: 12_000 })
    expect(error.message).toBe('Rate limited by the provider. Try again in 12 s.')
  })

  it('honours retry-after as an HTTP date on 429', async () => {
    const inThirtySeconds = new Date(Date.now() + 30_000).toUTCString()
    const error = await providerErrorFromResponse(jsonResponse(429, { error: { message: 'slow down' } }, { 'retry-after': inThirtySeconds }))
    expect(error.kind).toBe('rate-limit')
    expect(error.retryAfterMs).toBeGreaterThan(25_000)
    expect(error.retryAfterMs).toBeLessThanOrEqual(30_000)
    expect(error.message).toMatch(/^Rate limited by the provider\. Try again in (2[6-9]|30) s\.$/)
  })

  it('asks to wait when 429 comes without retry-after', async () => {
    const error = await providerErrorFromResponse(new Response('Too Many Requests', { status: 429 }))
    expect(error.retryAfterMs).toBeUndefined()
    expect(error.message).toBe('Rate limited by the provider. Wait a moment and try again.')
  })

  it('names the model on 404 and on "not a valid model" 400s', async () => {
    const notFound = await providerErrorFromResponse(jsonResponse(404, { error: { message: 'The model `gpt-9` does not exist', code: 'model_not_found' } }), { model: 'gpt-9' })
    expect(notFound).toMatchObject({ kind: 'model', status: 404, retryable: false })
    expect(notFound.message).toBe('The model "gpt-9" is not available from this provider. Pick another model in Settings.')
    const invalid = await providerErrorFromResponse(jsonResponse(400, { error: { code: 400, message: 'foo/bar is not a valid model ID' } }), { model: 'foo/bar' })
    expect(invalid.kind).toBe('model')
  })

  it('says the model cannot call tools when OpenRouter finds no tool-capable endpoint', async () => {
    const error = await providerErrorFromResponse(jsonResponse(404, { error: { code: 404, message: 'No endpoints found that support tool use. Try disabling "get_weather".' } }), { model: 'x/y' })
    expect(error.kind).toBe('model')
    expect(error.message).toBe('The model "x/y" cannot call tools with this provider. Turn tools off or pick another model in Settings.')
  })

  it('reads Ollama\'s string error body', async () => {
    const error = await providerErrorFromResponse(jsonResponse(404, { error: 'model "llama9" not found, try pulling it first' }), { model: 'llama9' })
    expect(error).toMatchObject({ kind: 'model', providerMessage: 'model "llama9" not found, try pulling it first' })
  })

  it('calls other 400s a bad request and shows the provider text', async () => {
    const error = await providerErrorFromResponse(jsonResponse(400, { error: { message: 'messages: field required', type: 'invalid_request_error' } }))
    expect(error).toMatchObject({ kind: 'bad-request', code: 'invalid_request_error', retryable: false })
    expect(error.message).toBe('The provider rejected the request: messages: field required')
  })

  it('calls 5xx a retryable server error and keeps OpenRouter metadata.raw', async () => {
    const error = await providerErrorFromResponse(jsonResponse(502, { error: { code: 502, message: 'Provider returned error', metadata: { raw: 'upstream timeout', provider_name: 'X' } } }))
    expect(error).toMatchObject({ kind: 'server', status: 502, retryable: true, providerMessage: 'Provider returned error | upstream timeout' })
    expect(error.message).toBe('The provider had a server error (502). Try again in a moment.')
  })

  it('keeps only the title of an HTML error page', async () => {
    const html = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><script>alert(1)</script><h1>Bad Gateway</h1></body></html>'
    const error = await providerErrorFromResponse(new Response(html, { status: 500, headers: { 'content-type': 'text/html' } }))
    expect(error.kind).toBe('server')
    expect(error.providerMessage).toBe('HTML error page: 502 Bad Gateway')
    expect(error.message).not.toContain('<')
  })

  it('keeps a plain-text body as the provider message', async () => {
    const error = await providerErrorFromResponse(new Response('upstream connect error', { status: 503 }))
    expect(error).toMatchObject({ kind: 'server', providerMessage: 'upstream connect error' })
  })

  it('treats an OpenRouter moderation 403 as a refused request, not a key problem', async () => {
    const error = await providerErrorFromResponse(jsonResponse(403, { error: { code: 403, message: 'Input was flagged by moderation', metadata: { reasons: ['x'] } } }))
    expect(error.kind).toBe('bad-request')
    const forbidden = await providerErrorFromResponse(jsonResponse(403, { error: { message: 'Forbidden' } }))
    expect(forbidden.kind).toBe('auth')
  })
})

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates and ignores junk', () => {
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(parseRetryAfter('1.5', now)).toBe(1500)
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000)
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0)
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter(null, now)).toBeUndefined()
  })
})

describe('providerErrorFromStreamError and providerErrorFromNetworkError', () => {
  it('makes stream errors of kind stream, retryable for server trouble', () => {
    expect(providerErrorFromStreamError({ code: 'server_error', message: 'Provider disconnected unexpectedly' })).toMatchObject({ kind: 'stream', retryable: true, code: 'server_error' })
    expect(providerErrorFromStreamError({ code: 400, message: 'Token limit reached' })).toMatchObject({ kind: 'stream', status: 400, retryable: false })
    expect(providerErrorFromStreamError(undefined).message).toBe('The provider stopped with an error mid-answer.')
  })

  it('names the unreachable host', () => {
    const error = providerErrorFromNetworkError(new TypeError('fetch failed'), 'http://localhost:11434/v1')
    expect(error).toMatchObject({ kind: 'network', retryable: true, providerMessage: 'fetch failed' })
    expect(error.message).toBe('Cannot reach localhost:11434. Check your connection or the base URL in Settings.')
  })
})

interface Recorded { method?: string, url?: string, headers: IncomingMessage['headers'], body: Record<string, unknown> }

describe('createOpenAICompatibleModel against a loopback server', () => {
  let server: LoopbackServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  /** Starts a server that records each request and answers with `respond`. */
  async function serve(respond: (response: ServerResponse, request: IncomingMessage) => void): Promise<Recorded[]> {
    const requests: Recorded[] = []
    server = await startLoopbackServer((request, response) => {
      let raw = ''
      request.on('data', (part: Buffer) => (raw += part.toString('utf8')))
      request.on('end', () => {
        requests.push({ method: request.method, url: request.url, headers: request.headers, body: raw ? JSON.parse(raw) : {} })
        respond(response, request)
      })
    })
    return requests
  }

  const answer = (response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' })
    response.write(': OPENROUTER PROCESSING\n\n')
    response.write('data: {"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n')
    response.end('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n')
  }

  async function collect(source: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
    const events: StreamEvent[] = []
    for await (const event of source) events.push(event)
    return events
  }

  const messages = [{ role: 'user' as const, content: 'Hello' }]

  it('omits tools, tool_choice and Authorization when none is given', async () => {
    const requests = await serve(answer)
    const model = createOpenAICompatibleModel({ baseURL: `${server!.url}/v1/`, model: 'local-model', apiKey: '' })
    const events = await collect(model.stream({ messages, tools: [], toolChoice: 'auto', signal: new AbortController().signal }))
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hi' },
      { type: 'finish', reason: 'stop' },
      { type: 'done', sawDoneSentinel: true },
    ])
    expect(requests[0]).toMatchObject({ method: 'POST', url: '/v1/chat/completions' })
    expect(requests[0]!.body).toEqual({ model: 'local-model', messages, stream: true, stream_options: { include_usage: true } })
    expect(requests[0]!.headers.authorization).toBeUndefined()
  })

  it('sends tools, tool_choice, the bearer key, extra headers and extra body fields when given', async () => {
    const requests = await serve(answer)
    const tools = [{ type: 'function' as const, function: { name: 'get_time', parameters: { type: 'object' as const, properties: {} } } }]
    const model = createOpenAICompatibleModel({
      baseURL: server!.url,
      model: 'openai/gpt-4o',
      apiKey: 'sk-test',
      headers: openRouterAttributionHeaders('https://plugboard.example', 'Plugboard'),
      extraBody: { temperature: 0.2, model: 'ignored' },
    })
    await collect(model.stream({ messages, tools, toolChoice: 'auto', signal: new AbortController().signal }))
    expect(requests[0]!.body).toMatchObject({ model: 'openai/gpt-4o', tools, tool_choice: 'auto', temperature: 0.2 })
    expect(requests[0]!.headers).toMatchObject({ 'authorization': 'Bearer sk-test', 'http-referer': 'https://plugboard.example', 'x-title': 'Plugboard' })
  })

  it('reads a server that ignores stream:true and answers with one JSON completion', async () => {
    await serve((response) => {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
      response.end(JSON.stringify({
        choices: [{ index: 0, message: { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_time', arguments: '{}' } }] }, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
      }))
    })
    const model = createOpenAICompatibleModel({ baseURL: server!.url, model: 'm' })
    expect(await collect(model.stream({ messages, signal: new AbortController().signal }))).toEqual([
      { type: 'text-delta', text: 'Checking.' },
      { type: 'tool-call-delta', index: 0, id: 'call_1', name: 'get_time', argumentsDelta: '{}' },
      { type: 'finish', reason: 'tool_calls' },
      { type: 'usage', usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 } },
      { type: 'done', sawDoneSentinel: true },
    ])
  })

  it('yields a stream error for a JSON error body sent with status 200', async () => {
    await serve((response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { message: 'context length exceeded', code: 'context_length_exceeded' } }))
    })
    const model = createOpenAICompatibleModel({ baseURL: server!.url, model: 'm' })
    const events = await collect(model.stream({ messages, signal: new AbortController().signal }))
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ type: 'error', error: { kind: 'stream', code: 'context_length_exceeded' } })
  })

  it('throws a ProviderError for a non-2xx answer', async () => {
    await serve((response) => {
      response.writeHead(401, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ error: { code: 401, message: 'No auth credentials found' } }))
    })
    const model = createOpenAICompatibleModel({ baseURL: server!.url, model: 'm' })
    await expect(collect(model.stream({ messages, signal: new AbortController().signal }))).rejects.toMatchObject({ name: 'ProviderError', kind: 'auth', status: 401 })
  })

  it('throws a network ProviderError when nothing listens', async () => {
    await serve(answer)
    const url = server!.url
    await server!.close()
    server = undefined
    const model = createOpenAICompatibleModel({ baseURL: url, model: 'm' })
    const failure = collect(model.stream({ messages, signal: new AbortController().signal }))
    await expect(failure).rejects.toBeInstanceOf(ProviderError)
    await expect(failure).rejects.toMatchObject({ kind: 'network', message: `Cannot reach ${new URL(url).host}. Check your connection or the base URL in Settings.` })
  })

  it('surfaces an abort mid-stream as an AbortError, not a ProviderError', async () => {
    await serve((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.write('data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n')
      // ...and never ends, like a model that keeps thinking.
    })
    const controller = new AbortController()
    const model = createOpenAICompatibleModel({ baseURL: server!.url, model: 'm' })
    const seen: StreamEvent[] = []
    const reading = (async () => {
      for await (const event of model.stream({ messages, signal: controller.signal })) {
        seen.push(event)
        setTimeout(() => controller.abort(), 10)
      }
    })()
    const error = await reading.then(() => undefined, (reason: unknown) => reason)
    expect(error).toBeInstanceOf(DOMException)
    expect(error).toMatchObject({ name: 'AbortError' })
    expect(ProviderError.isInstance(error)).toBe(false)
    expect(seen).toEqual([{ type: 'text-delta', text: 'Hi' }])
  })

  it('surfaces an abort before the response as an AbortError', async () => {
    await serve(() => {}) // never answers
    const controller = new AbortController()
    const model = createOpenAICompatibleModel({ baseURL: server!.url, model: 'm' })
    const reading = collect(model.stream({ messages, signal: controller.signal }))
    setTimeout(() => controller.abort(), 20)
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('throws a network ProviderError when the body breaks off mid-stream', async () => {
    await serve((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.write('data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n', () => setTimeout(() => response.socket?.destroy(), 20))
    })
    const model = createOpenAICompatibleModel({ baseURL: server!.url, model: 'm' })
    await expect(collect(model.stream({ messages, signal: new AbortController().signal }))).rejects.toMatchObject({ name: 'ProviderError', kind: 'network' })
  })
})

describe('fetchModels', () => {
  let server: LoopbackServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it('marks tool and reasoning support from OpenRouter supported_parameters and leaves them unknown for plain lists', async () => {
    let authorization: string | undefined
    server = await startLoopbackServer((request, response) => {
      authorization = request.headers.authorization
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({
        data: [
          { id: 'openai/gpt-4o', name: 'GPT-4o', context_length: 128000, supported_parameters: ['tools', 'tool_choice', 'reasoning'] },
          { id: 'x/no-tools', name: 'No tools', context_length: 8192, supported_parameters: ['temperature'] },
          { id: 'llama3.2:latest', object: 'model' },
          { name: 'no id, skipped' },
        ],
      }))
    })
    const models = await fetchModels(`${server.url}/`, { apiKey: 'k' })
    expect(authorization).toBe('Bearer k')
    expect(models).toEqual([
      { id: 'openai/gpt-4o', name: 'GPT-4o', contextLength: 128000, supportsTools: true, supportsReasoning: true },
      { id: 'x/no-tools', name: 'No tools', contextLength: 8192, supportsTools: false, supportsReasoning: false },
      { id: 'llama3.2:latest', name: undefined, contextLength: undefined, supportsTools: undefined, supportsReasoning: undefined },
    ])
  })

  it('throws a ProviderError for a failed listing', async () => {
    server = await startLoopbackServer((_, response) => {
      response.writeHead(500)
      response.end('boom')
    })
    await expect(fetchModels(server.url)).rejects.toMatchObject({ name: 'ProviderError', kind: 'server' })
  })
})
