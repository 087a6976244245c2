import { describe, expect, it, vi } from 'vitest'
import { readChatStream } from '#shared/stream/read-chat-stream'
import type { StreamEvent } from '#shared/stream/stream-event'
import { ProviderError } from '#shared/errors/provider-error'

const encoder = new TextEncoder()

function chunk(delta: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }], ...extra })
}

function sse(...payloads: string[]): string {
  return payloads.map(payload => `data: ${payload}\n\n`).join('')
}

function bodyOf(...parts: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(typeof part === 'string' ? encoder.encode(part) : part)
      controller.close()
    },
  })
}

async function collect(source: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = []
  for await (const event of source) events.push(event)
  return events
}

const textOf = (events: StreamEvent[]) => events.flatMap(event => (event.type === 'text-delta' ? [event.text] : [])).join('')
const reasoningOf = (events: StreamEvent[]) => events.flatMap(event => (event.type === 'reasoning-delta' ? [event.text] : [])).join('')

describe('readChatStream', () => {
  it('reads CRLF-framed events', async () => {
    const raw = `data: ${chunk({ content: 'Hel' })}\r\n\r\ndata: ${chunk({ content: 'lo' })}\r\n\r\ndata: [DONE]\r\n\r\n`
    const events = await collect(readChatStream(bodyOf(raw.slice(0, 7), raw.slice(7, 80), raw.slice(80))))
    expect(textOf(events)).toBe('Hello')
    expect(events.at(-1)).toEqual({ type: 'done', sawDoneSentinel: true })
  })

  it('keeps a multi-byte UTF-8 character whole when chunks split it', async () => {
    const bytes = encoder.encode(sse(chunk({ content: 'héllo 🌍 ✓' }), '[DONE]'))
    const emojiStart = bytes.indexOf(0xF0)
    const events = await collect(readChatStream(bodyOf(bytes.subarray(0, emojiStart + 1), bytes.subarray(emojiStart + 1, emojiStart + 3), bytes.subarray(emojiStart + 3))))
    expect(textOf(events)).toBe('héllo 🌍 ✓')
  })

  it('ignores OpenRouter comment lines between events', async () => {
    const raw = `: OPENROUTER PROCESSING\n\n${sse(chunk({ content: 'a' }))}: OPENROUTER PROCESSING\n\n${sse(chunk({ content: 'b' }), '[DONE]')}`
    const events = await collect(readChatStream(bodyOf(raw)))
    expect(events).toEqual([
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
      { type: 'done', sawDoneSentinel: true },
    ])
  })

  it('reports a body that ends without [DONE]', async () => {
    const events = await collect(readChatStream(bodyOf(sse(chunk({ content: 'partial' })))))
    expect(events).toEqual([{ type: 'text-delta', text: 'partial' }, { type: 'done', sawDoneSentinel: false }])
  })

  it('still reads a last event that lacks its closing blank line', async () => {
    const events = await collect(readChatStream(bodyOf(`${sse(chunk({ content: 'x' }))}data: [DONE]`)))
    expect(events.at(-1)).toEqual({ type: 'done', sawDoneSentinel: true })
  })

  it('turns an `event: error` into one stream error and stops there', async () => {
    const raw = `${sse(chunk({ content: 'maybe' }))}event: error\ndata: {"error":{"message":"Tool call validation failed","type":"invalid_request_error","code":"tool_use_failed"}}\n\n${sse(chunk({ content: 'never' }), '[DONE]')}`
    const events = await collect(readChatStream(bodyOf(raw)))
    expect(textOf(events)).toBe('maybe')
    const last = events.at(-1)
    expect(last?.type).toBe('error')
    if (last?.type !== 'error') return
    expect(last.error).toBeInstanceOf(ProviderError)
    expect(last.error.kind).toBe('stream')
    expect(last.error.code).toBe('tool_use_failed')
    expect(last.error.providerMessage).toBe('Tool call validation failed')
    expect(last.error.message).toContain('Tool call validation failed')
  })

  it('yields what came before an error object mid-stream, then the error, then nothing', async () => {
    const errorChunk = JSON.stringify({ error: { code: 429, message: 'Rate limit exceeded' }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] })
    const events = await collect(readChatStream(bodyOf(sse(chunk({ content: 'Half an ans' }), errorChunk, chunk({ content: 'wer' }), '[DONE]'))))
    expect(textOf(events)).toBe('Half an ans')
    expect(events.filter(event => event.type === 'error')).toHaveLength(1)
    const last = events.at(-1)
    expect(last?.type === 'error' && last.error).toMatchObject({ kind: 'stream', status: 429, retryable: true, providerMessage: 'Rate limit exceeded' })
    expect(events.some(event => event.type === 'done')).toBe(false)
  })

  it('treats finish_reason "error" without an error object as a stream error', async () => {
    const events = await collect(readChatStream(bodyOf(sse(JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'error' }] })))))
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { kind: 'stream' } })
  })

  it('skips a malformed data line, reports it and reads on', async () => {
    const onMalformedData = vi.fn()
    const events = await collect(readChatStream(bodyOf(sse(chunk({ content: 'a' }), '{"choices": [', chunk({ content: 'b' }), '[DONE]')), { onMalformedData }))
    expect(textOf(events)).toBe('ab')
    expect(onMalformedData).toHaveBeenCalledTimes(1)
    expect(onMalformedData.mock.calls[0]?.[0]).toBe('{"choices": [')
    // the parser's own words for where the text stopped being JSON, as the app's one JSON parser reports them
    expect(onMalformedData.mock.calls[0]?.[1]).toEqual(expect.stringMatching(/JSON/))
  })

  it('follows only choice 0 when several choices stream', async () => {
    const many = (index: number, content: string) => JSON.stringify({ choices: [{ index, delta: { content }, finish_reason: null }] })
    const events = await collect(readChatStream(bodyOf(sse(many(0, 'zero'), many(1, 'one'), many(2, 'two'), many(0, '!'), '[DONE]'))))
    expect(textOf(events)).toBe('zero!')
  })

  it('does not double OpenRouter reasoning sent both as `reasoning` and `reasoning_details`', async () => {
    const events = await collect(readChatStream(bodyOf(sse(
      chunk({ reasoning: 'Think', reasoning_details: [{ type: 'reasoning.text', text: 'Think' }] }),
      chunk({ reasoning_details: [{ type: 'reasoning.summary', summary: ' more' }, { type: 'reasoning.encrypted', data: 'xyz' }] }),
      chunk({ reasoning_content: ' and done' }),
      '[DONE]',
    ))))
    expect(reasoningOf(events)).toBe('Think more and done')
  })

  it('yields refusal text as text', async () => {
    const events = await collect(readChatStream(bodyOf(sse(chunk({ refusal: "I'm sorry" }), '[DONE]'))))
    expect(textOf(events)).toBe("I'm sorry")
  })

  it('leaves out empty ids and names that continuation chunks repeat', async () => {
    const call = (fields: Record<string, unknown>) => chunk({ tool_calls: [{ index: 0, ...fields }] })
    const events = await collect(readChatStream(bodyOf(sse(
      call({ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }),
      call({ id: '', function: { name: '', arguments: '{"city":' } }),
      call({ function: { arguments: '"Paris"}' } }),
      '[DONE]',
    ))))
    expect(events.filter(event => event.type === 'tool-call-delta')).toEqual([
      { type: 'tool-call-delta', index: 0, id: 'call_1', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"Paris"}' },
    ])
  })

  it('maps the usage chunk, reasoning tokens and cost included', async () => {
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, cost: 0.0002, completion_tokens_details: { reasoning_tokens: 3 } }
    const events = await collect(readChatStream(bodyOf(sse(JSON.stringify({ choices: [], usage }), '[DONE]'))))
    expect(events[0]).toEqual({ type: 'usage', usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15, reasoningTokens: 3, cost: 0.0002 } })
  })

  it('accepts an async iterable of strings', async () => {
    async function* strings() {
      yield 'data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n'
      yield '\ndata: [DONE]\n\n'
    }
    expect(textOf(await collect(readChatStream(strings())))).toBe('hi')
  })

  it('cancels the body once [DONE] is read', async () => {
    const cancel = vi.fn()
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(sse(chunk({ content: 'a' }), '[DONE]')))
      },
      cancel,
    })
    await collect(readChatStream(body))
    expect(cancel).toHaveBeenCalled()
  })

  it('stops with an AbortError when the signal aborts during a stalled read', async () => {
    const controller = new AbortController()
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        stream.enqueue(encoder.encode(sse(chunk({ content: 'first' }))))
      },
    })
    const seen: StreamEvent[] = []
    const reading = (async () => {
      for await (const event of readChatStream(body, { signal: controller.signal })) {
        seen.push(event)
        // The body has nothing more and never closes: the reader is waiting on read() when this fires.
        setTimeout(() => controller.abort(), 10)
      }
    })()
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' })
    await expect(reading).rejects.toBeInstanceOf(DOMException)
    expect(seen).toEqual([{ type: 'text-delta', text: 'first' }])
  })

  it('stops with an AbortError when an async iterable body stalls', async () => {
    const controller = new AbortController()
    async function* stalled() {
      yield sse(chunk({ content: 'first' }))
      await new Promise(() => {})
    }
    const reading = collect(readChatStream(stalled(), { signal: controller.signal }))
    setTimeout(() => controller.abort(), 10)
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('stops at the next event when aborted in the middle of one network read', async () => {
    const controller = new AbortController()
    const seen: StreamEvent[] = []
    const reading = (async () => {
      for await (const event of readChatStream(bodyOf(sse(chunk({ content: 'a' }), chunk({ content: 'b' }), chunk({ content: 'c' }), '[DONE]')), { signal: controller.signal })) {
        seen.push(event)
        controller.abort()
      }
    })()
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' })
    expect(seen).toEqual([{ type: 'text-delta', text: 'a' }])
  })

  it('does not start reading when the signal is already aborted', async () => {
    const controller = new AbortController()
    controller.abort(new Error('custom reason'))
    await expect(collect(readChatStream(bodyOf(sse('[DONE]')), { signal: controller.signal }))).rejects.toMatchObject({ name: 'AbortError' })
  })
})
