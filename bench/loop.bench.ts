// Loop overhead per step: a scripted OpenAI-compatible server on loopback answers each request with one streamed
// call to a no-op tool until step N, then a short text. Our runChatLoop (through createOpenAICompatibleModel) and the
// Vercel AI SDK's multi-step streamText (through @ai-sdk/openai-compatible) drive the same server.
// Run: `node --import tsx bench/loop.bench.ts` (or `npm run bench`).
import type { IncomingMessage, ServerResponse } from 'node:http'
import { pathToFileURL } from 'node:url'
import { jsonSchema, stepCountIs, streamText, tool } from 'ai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { runChatLoop } from '../shared/loop/run-chat-loop'
import { createOpenAICompatibleModel } from '../shared/stream/openai-compatible-model'
import { toolSetFromArray } from '../shared/tools/tool-set'
import { aiSdkVersion, formatSpread, measureInterleaved, printTable, startLoopbackServer, writeResult } from './lib/index'

const STEPS = 10
const ROUNDS = 21
const WARMUP = 3
const noopParameters = { type: 'object' as const, properties: {}, additionalProperties: false }

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  const body = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{ index: 0, delta, finish_reason: finishReason }] }
  return `data: ${JSON.stringify(body)}\n\n`
}

/** Step = assistant messages already in the request + 1: a tool call until the last step, then text. */
function answer(step: number): string {
  const usage = `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`
  if (step >= STEPS) {
    return chunk({ role: 'assistant', content: '' }) + chunk({ content: 'All ' }) + chunk({ content: 'done.' }) + chunk({}, 'stop') + usage + 'data: [DONE]\n\n'
  }
  return chunk({ role: 'assistant', content: null })
    + chunk({ tool_calls: [{ index: 0, id: `call_${step}`, type: 'function', function: { name: 'noop', arguments: '' } }] })
    + chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] })
    + chunk({}, 'tool_calls') + usage + 'data: [DONE]\n\n'
}

function createScriptedServer() {
  let requests = 0
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (part: string) => (body += part))
    request.on('end', () => {
      requests++
      const messages = (JSON.parse(body) as { messages: { role: string }[] }).messages
      const step = messages.filter(message => message.role === 'assistant').length + 1
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
      response.end(answer(step))
    })
  }
  /** Requests served since the last call. */
  const takeRequestCount = () => {
    const count = requests
    requests = 0
    return count
  }
  return { handler, takeRequestCount }
}

async function runOurs(baseURL: string): Promise<number> {
  const model = createOpenAICompatibleModel({ baseURL, model: 'bench' })
  const tools = toolSetFromArray([{ definition: { type: 'function', function: { name: 'noop', parameters: noopParameters } }, handler: () => 'ok' }])
  const result = await runChatLoop({ model, messages: [{ role: 'user', content: 'go' }], tools, threadId: 'bench', maxSteps: STEPS })
  if (result.finishReason !== 'stop') throw new Error(`our loop ended with ${result.finishReason}: ${result.error?.message}`)
  return result.steps
}

async function runAiSdk(baseURL: string): Promise<number> {
  const provider = createOpenAICompatible({ name: 'bench', baseURL, includeUsage: true })
  const result = streamText({
    model: provider('bench'),
    messages: [{ role: 'user', content: 'go' }],
    tools: { noop: tool({ inputSchema: jsonSchema(noopParameters), execute: async () => 'ok' }) },
    stopWhen: stepCountIs(STEPS),
  })
  await result.consumeStream()
  return (await result.steps).length
}

/** Per-step milliseconds of our loop and of the AI SDK against the same scripted server, and their ratio. */
export async function runLoopBench() {
  const scripted = createScriptedServer()
  // Idle sockets outlive the slower contender's slot on a loaded machine, so fetch never reuses a closing one.
  const server = await startLoopbackServer(scripted.handler, { keepAliveTimeoutMs: 120_000 })
  const baseURL = `${server.url}/v1`
  try {
    const contenders = [
      { name: 'runChatLoop + createOpenAICompatibleModel', run: () => runOurs(baseURL) },
      { name: `AI SDK ${aiSdkVersion} streamText + @ai-sdk/openai-compatible`, run: () => runAiSdk(baseURL) },
    ]
    for (const contender of contenders) {
      // Both must really take STEPS model round trips, or the comparison means nothing.
      scripted.takeRequestCount()
      const steps = await contender.run()
      const requests = scripted.takeRequestCount()
      if (steps !== STEPS || requests !== STEPS) throw new Error(`${contender.name}: ${steps} steps, ${requests} requests; expected ${STEPS}`)
    }
    const timings = await measureInterleaved(contenders, { rounds: ROUNDS, warmup: WARMUP })
    const rows = timings.map(timing => ({
      'contender': timing.name,
      'CPU ms/step (median)': timing.medianMs / STEPS,
      'CPU ms/step (min)': timing.minMs / STEPS,
      'vs ours (median of rounds)': timing.ratio,
      'vs ours spread': timing === timings[0] ? '' : formatSpread(timing),
    }))
    printTable(`Loop overhead per step (${STEPS} steps: ${STEPS - 1} no-op tool calls + 1 text; this process's CPU time, loopback server included; ${ROUNDS} interleaved rounds after ${WARMUP} warm-up)`, rows)
    const aiSdk = timings[1]!
    const path = await writeResult('loop', { steps: STEPS, rounds: ROUNDS, warmup: WARMUP, clock: 'cpu', rows, aiSdkOverOurs: { median: aiSdk.ratio, q1: aiSdk.ratioQ1, q3: aiSdk.ratioQ3, min: aiSdk.ratioMin, max: aiSdk.ratioMax } })
    console.log(`written ${path}`)
    return rows
  }
  finally {
    await server.close()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runLoopBench()
}
