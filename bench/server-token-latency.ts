// The server's part of token-to-paint: from the moment a loopback upstream writes a token to the moment it reaches a
// reader of the built app, through the plain proxy (`/api/openrouter/chat/completions`) and through a server-run chat
// (`POST /api/chats`, then its event stream `GET /api/chats/:id/events`), interleaved, in one run. The browser's part
// (recording, rendering) is bench:ui's. Needs `npx nuxt build` first.
//   node --import tsx bench/server-token-latency.ts       BENCH_TOKENS (default 150), BENCH_TOKEN_GAP_MS (20), BENCH_REPS (3)
import type { ServerResponse } from 'node:http'
import { createParser } from 'eventsource-parser'
import { startApp } from '../tests/e2e/support/app-instance'
import { printTable, startLoopbackServer, writeResult } from './lib/index'
import { median, percentile, spread } from './background-jobs/serving-probe'
import { findTokens, matchRun, newRunNonce, runToken, WriteLog, type Sighting } from './ui/token-match'

const TOKENS = Number(process.env.BENCH_TOKENS ?? 150)
const GAP_MS = Number(process.env.BENCH_TOKEN_GAP_MS ?? 20)
const REPS = Number(process.env.BENCH_REPS ?? 3)

/** When the upstream wrote each token, per run (a run's nonce is in its question; a late or repeated answer cannot mix in). */
const written = new WriteLog()

async function streamReply(response: ServerResponse, nonce: string): Promise<void> {
  const writes = written.begin(nonce)
  response.writeHead(200, { 'content-type': 'text/event-stream' })
  const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'r', object: 'chat.completion.chunk', model: 'fake/tokens', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  response.write(chunk({ role: 'assistant', content: '' }))
  for (let index = 0; index < TOKENS; index++) {
    await new Promise(resolve => setTimeout(resolve, GAP_MS))
    writes[index] = performance.now()
    response.write(chunk({ content: ` ${runToken(nonce, index)}` }))
  }
  response.write(chunk({}, 'stop'))
  response.end('data: [DONE]\n\n')
}

/**
 * Reads `body` as SSE; each run token found in a frame's data is stamped with its arrival, then matched to run
 * `nonce`'s own writes. `streamed` picks the frames that carry a token as it streams (a job's step-finish repeats
 * the whole text). A run that cannot be matched says why and counts for nothing.
 */
async function readTokens(nonce: string, body: ReadableStream<Uint8Array>, streamed: (data: string) => boolean = () => true): Promise<number[]> {
  const sightings: Sighting[] = []
  const parser = createParser({
    onEvent: ({ data }) => {
      const now = performance.now()
      if (streamed(data)) sightings.push(...findTokens(data, now))
    },
  })
  const decoder = new TextDecoder()
  for await (const part of body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(part, { stream: true }))
  const matched = matchRun(sightings, written, nonce, TOKENS)
  written.forget(nonce)
  if (matched.rejected) console.warn(`run ${nonce} left out: ${matched.rejected}`)
  return matched.latencies
}

const upstream = await startLoopbackServer((request, response) => {
  let body = ''
  request.setEncoding('utf8')
  request.on('data', (part: string) => (body += part))
  request.on('end', () => void streamReply(response, /run ([a-z]{6})\./.exec(body)?.[1] ?? 'unnamed'))
})
const app = await startApp({ NUXT_OPENROUTER_API_KEY: 'sk-or-bench', NUXT_OPENROUTER_BASE_URL: `${upstream.url}/api/v1`, NUXT_SESSION_PASSWORD: 'server-token-latency-bench-password-0123456789' })
const question = (nonce: string) => [{ role: 'user', content: `Say the tokens, run ${nonce}.` }]
const json = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', 'origin': app.url }
const paths = {
  'plain proxy': async () => {
    const nonce = newRunNonce()
    const messages = question(nonce)
    const response = await app.fetchWithSession('/api/openrouter/chat/completions', { method: 'POST', headers: json, body: JSON.stringify({ model: 'fake/tokens', stream: true, messages }) })
    return readTokens(nonce, response.body!)
  },
  'server-run chat': async () => {
    const nonce = newRunNonce()
    const messages = question(nonce)
    const started = await app.fetchWithSession('/api/chats', { method: 'POST', headers: json, body: JSON.stringify({ threadId: `bench-${Date.now()}`, model: 'fake/tokens', messages, serverTools: [] }) })
    if (started.status !== 201) throw new Error(`POST /api/chats answered ${started.status}: ${await started.text()}`)
    const { id } = await started.json() as { id: string }
    const events = await app.fetchWithSession(`/api/chats/${id}/events?after=0`, { headers: { accept: 'text/event-stream' } })
    return readTokens(nonce, events.body!, data => data.startsWith('{"type":"text-delta"'))
  },
}
const runs = new Map<string, number[][]>(Object.keys(paths).map(name => [name, []]))
try {
  // One reply each first: the server's first chat loads its modules.
  for (const read of Object.values(paths)) await read()
  for (let rep = 0; rep < REPS; rep++) {
    const names = Object.keys(paths) as Array<keyof typeof paths>
    for (const name of rep % 2 ? names.reverse() : names) {
      const latencies = (await paths[name]()).sort((a, b) => a - b)
      if (latencies.length) runs.get(name)!.push(latencies)
    }
  }
}
finally {
  await app.stop()
  await upstream.close()
}
const rows = [...runs].map(([path, reps]) => ({
  path,
  'p50 ms': spread(reps.map(latencies => percentile(latencies, 50)), 2),
  'p95 ms': spread(reps.map(latencies => percentile(latencies, 95)), 2),
  'max ms': spread(reps.map(latencies => latencies.at(-1)!), 2),
  'runs kept': `${reps.length} of ${REPS}`,
  'p95 / plain proxy': (median(reps.map(latencies => percentile(latencies, 95))) / median(runs.get('plain proxy')!.map(latencies => percentile(latencies, 95)))).toFixed(2),
}))
printTable(`Upstream write → reader of the built app, ${TOKENS} tokens ${GAP_MS} ms apart, ${REPS} interleaved repetitions, median (min–max)`, rows)
console.log(`written ${await writeResult('server-token-latency', { tokens: TOKENS, gapMs: GAP_MS, repetitions: REPS, rows })}`)
process.exit(0)
