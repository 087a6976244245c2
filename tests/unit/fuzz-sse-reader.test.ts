// Property tests of the SSE reader: a recorded stream cut into network reads at random byte offsets gives the events
// of the stream read whole, and no body of arbitrary bytes (or arbitrary JSON in `data:` lines) makes the reader
// throw; it reports a provider's errors as `error` events, and only a failing body or an abort throw.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { fuzzOptions } from '~~/tests/unit/helpers/fuzz-options'
import { readChatStream } from '#shared/stream/read-chat-stream'
import type { StreamEvent } from '#shared/stream/stream-event'

const corpus = resolve(process.cwd(), 'tests/fixtures/corpora/sse-streams')
const files = (JSON.parse(readFileSync(resolve(corpus, 'index.json'), 'utf8')) as { streams: { file: string }[] }).streams
  .map(stream => new Uint8Array(readFileSync(resolve(corpus, stream.file))))

/** Network reads of the sizes given, used in turn until the body is used up. */
function cut(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
  const reads: Uint8Array[] = []
  for (let index = 0, turn = 0; index < bytes.length; turn++) {
    const size = sizes[turn % sizes.length]!
    reads.push(bytes.subarray(index, index + size))
    index += size
  }
  return reads
}

/** The events as plain data: an error event's ProviderError compared by its fields. */
async function read(reads: (Uint8Array | string)[]): Promise<unknown[]> {
  const events: StreamEvent[] = []
  for await (const event of readChatStream((async function* () { yield* reads })())) events.push(event)
  return events.map(event => event.type === 'error' ? { type: 'error', error: { ...event.error, message: event.error.message, name: event.error.name } } : event)
}

const readSizes = fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 12 })

const SSE_PIECES = ['data: ', 'data:', 'event: error\n', 'event: ping\n', 'id: 7\n', 'retry: 10\n', ': OPENROUTER PROCESSING\n', '\n', '\r\n', '\r',
  '[DONE]', '{"choices":[{"index":0,"delta":{"content":"hi"}}]}', '{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{\\"a"}}]}}]}',
  '{"choices":[{"index":0,"finish_reason":"error"}]}', '{"error":{"message":"overloaded","code":529}}', '{"usage":{"prompt_tokens":1}}',
  '{"choices":[{"index":0,"delta":{"reasoning":"r","reasoning_details":[{"type":"reasoning.text","text":"t"}]}}]}', '{', '}', '"', 'é', '\u0000']

describe('SSE reader, fuzzed', () => {
  it(`gives the events of each of the ${files.length} recorded streams however its bytes are cut into reads (1,000 runs)`, async () => {
    const whole = await Promise.all(files.map(bytes => read([bytes])))
    await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: files.length - 1 }), readSizes, async (file, sizes) => {
      expect(await read(cut(files[file]!, sizes))).toEqual(whole[file])
    }), fuzzOptions(1_000))
  })

  it('never throws on a body of arbitrary bytes in arbitrary reads (4,000 runs)', async () => {
    await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), readSizes, async (bytes, sizes) => {
      const events = await read(cut(bytes, sizes))
      expect(events.at(-1)).toMatchObject({ type: expect.stringMatching(/^(done|error)$/) })
    }), fuzzOptions(4_000))
  })

  it('never throws on a soup of SSE lines and chunk JSON, and reads it the same however it is cut (4,000 runs)', async () => {
    const soup = fc.array(fc.constantFrom(...SSE_PIECES), { maxLength: 40 }).map(pieces => new TextEncoder().encode(pieces.join('')))
    await fc.assert(fc.asyncProperty(soup, readSizes, async (bytes, sizes) => {
      expect(await read(cut(bytes, sizes))).toEqual(await read([bytes]))
    }), fuzzOptions(4_000))
  })

  it('never throws on arbitrary JSON in data lines (3,000 runs)', async () => {
    const chunkLike = fc.oneof(
      fc.jsonValue(),
      fc.record({ choices: fc.array(fc.record({ index: fc.jsonValue(), delta: fc.jsonValue(), finish_reason: fc.jsonValue() }, { requiredKeys: [] }), { maxLength: 2 }), usage: fc.jsonValue(), error: fc.jsonValue() }, { requiredKeys: [] }),
      fc.record({ choices: fc.constant([{ index: 0, delta: {} }]), tool_calls: fc.jsonValue() }).map(({ tool_calls }) => ({ choices: [{ index: 0, delta: { tool_calls, reasoning_details: tool_calls, content: tool_calls } }] })),
    )
    const body = fc.array(fc.tuple(fc.boolean(), chunkLike), { maxLength: 6 })
      .map(items => items.map(([asError, value]) => `${asError ? 'event: error\n' : ''}data: ${JSON.stringify(value)}\n\n`).join(''))
    await fc.assert(fc.asyncProperty(body, async (text) => {
      const events = await read([text])
      expect(events.at(-1)).toMatchObject({ type: expect.stringMatching(/^(done|error)$/) })
    }), fuzzOptions(3_000))
  })
})
