// Stream reader throughput: the bare floor (eventsource-parser + JSON.parse), our readChatStream in memory, our
// createOpenAICompatibleModel over loopback HTTP, and the Vercel AI SDK (streamText + @ai-sdk/openai-compatible)
// over the same loopback server, on (a) every recorded corpus stream and (b) a synthetic 20,000-token stream.
// Run: `node --import tsx bench/stream-reader.bench.ts` (or `npm run bench`).
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createParser } from 'eventsource-parser'
import { streamText } from 'ai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { readChatStream } from '../shared/stream/read-chat-stream'
import { createOpenAICompatibleModel } from '../shared/stream/openai-compatible-model'
import { aiSdkVersion, formatSpread, measureInterleaved, printTable, startLoopbackServer, writeResult } from './lib/index'
import type { Contender } from './lib/index'

const root = resolve(fileURLToPath(import.meta.url), '../..')
const corpusDirectory = resolve(root, 'tests/fixtures/corpora/sse-streams')
/** In-memory chunk size: a typical size of one network read. */
const CHUNK_BYTES = 16 * 1024
const SYNTHETIC_TOKENS = 20_000
const ROUNDS = 15
const WARMUP = 3

interface Dataset { name: string, streams: Uint8Array[], chunked: Uint8Array[][], bytes: number }

function chunksOf(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = []
  for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) chunks.push(bytes.subarray(offset, offset + CHUNK_BYTES))
  return chunks
}

function dataset(name: string, streams: Uint8Array[]): Dataset {
  return { name, streams, chunked: streams.map(chunksOf), bytes: streams.reduce((sum, stream) => sum + stream.length, 0) }
}

function corpusDataset(): Dataset {
  const index = JSON.parse(readFileSync(resolve(corpusDirectory, 'index.json'), 'utf8')) as { streams: { file: string }[] }
  return dataset(`corpus (${index.streams.length} streams)`, index.streams.map(entry => new Uint8Array(readFileSync(resolve(corpusDirectory, entry.file)))))
}

/** One token per SSE event in OpenAI's chunk shape, then a finish chunk, a usage chunk and [DONE]. */
function syntheticDataset(): Dataset {
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'bench-model', system_fingerprint: 'fp_bench' }
  const lines: string[] = []
  for (let i = 0; i < SYNTHETIC_TOKENS; i++) {
    const token = i % 10 === 0 ? ' café' : ` tok${i}`
    lines.push(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: token }, logprobs: null, finish_reason: null }] })}\n\n`)
  }
  lines.push(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }] })}\n\n`)
  lines.push(`data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 12, completion_tokens: SYNTHETIC_TOKENS, total_tokens: SYNTHETIC_TOKENS + 12 } })}\n\n`)
  lines.push('data: [DONE]\n\n')
  return dataset(`synthetic ${SYNTHETIC_TOKENS} tokens`, [new TextEncoder().encode(lines.join(''))])
}

/** The floor: decoding, SSE framing and JSON.parse, nothing else. Returns characters of content seen (kept live). */
function floor(data: Dataset): number {
  let seen = 0
  for (const chunks of data.chunked) {
    const decoder = new TextDecoder()
    const parser = createParser({
      onEvent(message) {
        if (message.data === '[DONE]') return
        try {
          const parsed = JSON.parse(message.data) as { choices?: { delta?: { content?: unknown } }[] }
          const content = parsed.choices?.[0]?.delta?.content
          if (typeof content === 'string') seen += content.length
        }
        catch {
          // Same policy as the reader: malformed lines are skipped.
        }
      },
    })
    for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }))
    parser.feed(`${decoder.decode()}\n\n`)
  }
  return seen
}

async function* iterate(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk
}

async function oursInMemory(data: Dataset): Promise<number> {
  let seen = 0
  for (const chunks of data.chunked) {
    for await (const event of readChatStream(iterate(chunks))) {
      if (event.type === 'text-delta') seen += event.text.length
    }
  }
  return seen
}

const messages = [{ role: 'user' as const, content: 'bench' }]

/** The HTTP floor: the same requests, body bytes read and dropped, so the loopback rows can be read against it. */
async function bytesOverHttp(data: Dataset, url: string): Promise<number> {
  let bytes = 0
  for (let i = 0; i < data.streams.length; i++) {
    const response = await fetch(`${url}/s/${i}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'bench-model', messages, stream: true }) })
    const reader = response.body!.getReader()
    for (let result = await reader.read(); !result.done; result = await reader.read()) bytes += result.value.length
  }
  return bytes
}

async function oursOverHttp(data: Dataset, url: string): Promise<number> {
  let seen = 0
  for (let i = 0; i < data.streams.length; i++) {
    const model = createOpenAICompatibleModel({ baseURL: `${url}/s/${i}`, model: 'bench-model' })
    for await (const event of model.stream({ messages, signal: new AbortController().signal })) {
      if (event.type === 'text-delta') seen += event.text.length
    }
  }
  return seen
}

async function aiSdkOverHttp(data: Dataset, url: string): Promise<number> {
  let seen = 0
  for (let i = 0; i < data.streams.length; i++) {
    const provider = createOpenAICompatible({ name: 'bench', baseURL: `${url}/s/${i}`, includeUsage: true })
    const result = streamText({ model: provider('bench-model'), prompt: 'bench', maxRetries: 0, onError: () => {} })
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') seen += part.text.length
    }
  }
  return seen
}

export async function runStreamReaderBench(): Promise<Record<string, string | number>[]> {
  const datasets = [corpusDataset(), syntheticDataset()]
  const rows: Record<string, string | number>[] = []
  for (const data of datasets) {
    const server = await startLoopbackServer((request, response) => {
      request.resume()
      request.on('end', () => {
        const index = Number(/^\/s\/(\d+)\//.exec(request.url ?? '')?.[1])
        const body = data.streams[index]
        if (!body) {
          response.writeHead(404).end()
          return
        }
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
        response.end(body)
      })
    // Idle sockets outlive the slowest contender's slot on a loaded machine, so fetch never reuses a closing one.
    }, { keepAliveTimeoutMs: 120_000 })
    try {
      const readers: Contender[] = [
        // The floor comes first: the ratio column divides each round's time by the floor's in that round.
        // The cheap readers run several times a slot, so each sample is long enough to be steady.
        { name: 'floor: eventsource-parser + JSON.parse', run: () => floor(data), repeat: 5 },
        { name: 'ours: readChatStream (in memory)', run: () => oursInMemory(data), repeat: 5 },
        { name: 'loopback: fetch + read bytes only', run: () => bytesOverHttp(data, server.url), repeat: 3 },
        { name: 'ours: createOpenAICompatibleModel (loopback)', run: () => oursOverHttp(data, server.url) },
        { name: `Vercel AI SDK ${aiSdkVersion} streamText (loopback)`, run: () => aiSdkOverHttp(data, server.url) },
      ]
      const chars = []
      for (const reader of readers) chars.push(Number(await reader.run()))
      const timings = await measureInterleaved(readers, { rounds: ROUNDS, warmup: WARMUP })
      for (const [index, timing] of timings.entries()) {
        rows.push({
          dataset: data.name,
          reader: timing.name,
          'MB': Number((data.bytes / 1e6).toFixed(2)),
          'median CPU ms': Number(timing.medianMs.toFixed(2)),
          'MB/s': Number((data.bytes / 1e6 / (timing.medianMs / 1000)).toFixed(1)),
          'x floor (median of rounds)': Number(timing.ratio.toFixed(2)),
          'x floor spread': index === 0 ? '' : formatSpread(timing),
          // Visible characters (bytes for the loopback-only row): a sanity check that every reader read it all.
          // On the corpus the floor counts only `content`; the readers also count refusals and content parts.
          'chars seen': chars[index]!,
        })
      }
    }
    finally {
      await server.close()
    }
  }
  printTable(`Stream reader throughput (this process's CPU time, loopback server included; ${ROUNDS} interleaved rounds after ${WARMUP} warm-up; ratio = median of the per-round ratios to the floor, with their IQR and range; ${CHUNK_BYTES / 1024} KiB chunks in memory)`, rows)
  const path = await writeResult('stream-reader', { rounds: ROUNDS, warmup: WARMUP, chunkBytes: CHUNK_BYTES, syntheticTokens: SYNTHETIC_TOKENS, rows })
  console.log(`written ${path}`)
  return rows
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runStreamReaderBench()
}
