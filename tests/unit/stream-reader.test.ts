import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readChatStream } from '#shared/stream/read-chat-stream'
import type { StreamEvent } from '#shared/stream/stream-event'
import type { TokenUsage } from '#shared/types/chat'

const corpusDirectory = resolve(process.cwd(), 'tests/fixtures/corpora/sse-streams')

interface DerivedToolCall { index: number, id: string | null, name: string | null, arguments: string }
interface Derived {
  content: string | null
  reasoning: string | null
  reasoning_content: string | null
  refusal: string | null
  tool_calls: DerivedToolCall[]
  finish_reason: string | null
  usage: Record<string, unknown> | null
  error_events: { message?: string }[] | null
  done_sentinel: boolean
}
interface IndexEntry { file: string, features: string[], derived: Derived }

const streams: IndexEntry[] = JSON.parse(readFileSync(resolve(corpusDirectory, 'index.json'), 'utf8')).streams

/** What a consumer assembles from the events; tool calls folded by index (first id, first name, arguments joined). */
interface Assembled {
  text: string
  reasoning: string
  toolCalls: { index: number, id?: string, name?: string, arguments: string }[]
  finishReason: string | null
  usage: TokenUsage | null
  errors: { kind: string, providerMessage?: string }[]
  done: boolean | null
}

function assemble(events: StreamEvent[]): Assembled {
  const result: Assembled = { text: '', reasoning: '', toolCalls: [], finishReason: null, usage: null, errors: [], done: null }
  const calls = new Map<number, Assembled['toolCalls'][number]>()
  for (const event of events) {
    if (event.type === 'text-delta') result.text += event.text
    else if (event.type === 'reasoning-delta') result.reasoning += event.text
    else if (event.type === 'tool-call-delta') {
      const call = calls.get(event.index) ?? { index: event.index, arguments: '' }
      call.id ??= event.id
      call.name ??= event.name
      call.arguments += event.argumentsDelta ?? ''
      calls.set(event.index, call)
    }
    else if (event.type === 'finish') result.finishReason = event.reason
    else if (event.type === 'usage') result.usage = event.usage
    else if (event.type === 'error') result.errors.push({ kind: event.error.kind, providerMessage: event.error.providerMessage })
    else if (event.type === 'done') result.done = event.sawDoneSentinel
  }
  result.toolCalls = [...calls.values()].sort((a, b) => a.index - b.index)
  return result
}

function expectedUsage(usage: Record<string, unknown> | null): TokenUsage | null {
  if (!usage) return null
  const details = usage.completion_tokens_details as { reasoning_tokens?: unknown } | null | undefined
  const result: TokenUsage = {}
  if (typeof usage.prompt_tokens === 'number') result.promptTokens = usage.prompt_tokens
  if (typeof usage.completion_tokens === 'number') result.completionTokens = usage.completion_tokens
  if (typeof usage.total_tokens === 'number') result.totalTokens = usage.total_tokens
  if (typeof details?.reasoning_tokens === 'number') result.reasoningTokens = details.reasoning_tokens
  if (typeof usage.cost === 'number') result.cost = usage.cost
  return result
}

/**
 * Where the collector's `derived` summary differs from what the reader is meant to do, by design (see report):
 * it ignores `reasoning_details` and content given as an array of parts, and keeps reading after an error.
 */
const overrides: Record<string, Partial<Assembled>> = {
  // Snowflake's Claude sends reasoning only as `reasoning_details` (no `reasoning` field).
  'pydantic-ai/snowflake/snowflake__test_snowflake_thinking_streaming.0.sse': { reasoning: '15 * 27 = 405' },
  // Magistral sends `content` as parts: thinking parts are reasoning, text parts are text.
  'vercel-ai/mistral__mistral-reasoning.sse': { text: '2 + 2 = 4', reasoning: 'The user is asking for 2+2. This is basic arithmetic. 2+2=4.' },
}

function expectedFor(entry: IndexEntry): Assembled {
  const derived = entry.derived
  const errors = (derived.error_events ?? []).slice(0, 1).map(error => ({ kind: 'stream', providerMessage: error.message }))
  return {
    text: (derived.content ?? '') + (derived.refusal ?? ''),
    reasoning: (derived.reasoning ?? '') + (derived.reasoning_content ?? ''),
    toolCalls: derived.tool_calls.map(call => ({
      index: call.index,
      id: call.id || undefined,
      name: call.name || undefined,
      arguments: call.arguments,
    })),
    finishReason: derived.finish_reason,
    usage: expectedUsage(derived.usage),
    errors,
    // The reader stops at the first error, so no `done` follows it even when `[DONE]` was sent later.
    done: errors.length > 0 ? null : derived.done_sentinel,
    ...overrides[entry.file],
  }
}

/** Deterministic PRNG (mulberry32) so a failing split can be reproduced from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6D2B79F5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Split bytes at random boundaries (often inside a multi-byte character or a `\r\n`); sizes 1..maxChunk. */
function splitAt(bytes: Uint8Array, seed: number): Uint8Array[] {
  const next = random(seed)
  const maxChunk = [2, 7, 31, 128, 1024][seed % 5]!
  const chunks: Uint8Array[] = []
  for (let offset = 0; offset < bytes.length;) {
    const size = 1 + Math.floor(next() * maxChunk)
    chunks.push(bytes.subarray(offset, offset + size))
    offset += size
  }
  return chunks
}

function readableOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let position = 0
  return new ReadableStream({
    pull(controller) {
      if (position < chunks.length) controller.enqueue(chunks[position++]!)
      else controller.close()
    },
  })
}

async function* oneByteAtATime(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset++) yield bytes.subarray(offset, offset + 1)
}

async function collect(source: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = []
  for await (const event of source) events.push(event)
  return events
}

/** Events in a comparable form: ProviderError instances reduced to the fields a consumer reads. */
function comparable(events: StreamEvent[]): unknown[] {
  return events.map(event => event.type === 'error'
    ? { type: 'error', kind: event.error.kind, message: event.error.message, code: event.error.code, retryable: event.error.retryable }
    : event)
}

const SPLITS_PER_STREAM = 20
const passed = { derived: 0, rechunked: 0 }

afterAll(() => {
  console.log(`sse-streams corpus: ${passed.derived}/${streams.length} streams assemble as expected; ${passed.rechunked}/${streams.length} assemble identically under ${SPLITS_PER_STREAM} re-chunkings each (incl. 1-byte chunks)`)
})

describe('readChatStream on the recorded sse-streams corpus', () => {
  it('indexes 95 streams', () => {
    expect(streams).toHaveLength(95)
  })

  describe.each(streams.map(entry => [entry.file, entry] as const))('%s', (file, entry) => {
    const bytes = new Uint8Array(readFileSync(resolve(corpusDirectory, file)))

    it('assembles the expected text, reasoning, tool calls, finish reason, usage, errors and end', async () => {
      const events = await collect(readChatStream(readableOf([bytes])))
      expect(assemble(events)).toEqual(expectedFor(entry))
      passed.derived++
    })

    it('yields the same events however the bytes are split', async () => {
      const reference = comparable(await collect(readChatStream(readableOf([bytes]))))
      expect(comparable(await collect(readChatStream(oneByteAtATime(bytes))))).toEqual(reference)
      for (let seed = 1; seed < SPLITS_PER_STREAM; seed++) {
        const events = await collect(readChatStream(readableOf(splitAt(bytes, seed))))
        expect(comparable(events), `split seed ${seed}`).toEqual(reference)
      }
      passed.rechunked++
    })
  })
})
