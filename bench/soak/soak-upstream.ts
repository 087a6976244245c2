// The soak's scripted OpenRouter and the web pages its chats fetch, in one loopback server. Each chat's first user
// message names the chat and its plan (`soak chat 17 plan calc,fetch`): the model calls the plan's tools one per
// step (call ids `call_<chat>_<k>`), then answers with a slow text. A fetch_web_page call reads
// `/page/<chat>-<k>`, and each read is counted: that page is the tool's side effect seen from outside, so a call
// that ran twice shows as two reads.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { startLoopbackServer } from '../lib/index'

export type SoakTool = 'calc' | 'fetch'

/** What the upstream saw, for the checks. */
export interface UpstreamRecord {
  /** Model requests per chat (a takeover asks again for the step it cut). */
  modelRequests: Map<number, number>
  /** Reads of each page (`<chat>-<k>`): fetch_web_page runs of that call. */
  pageReads: Map<string, number>
  /** Model requests whose history answered one call id twice (`<chat>: <call id>`). */
  repeatedToolMessages: string[]
}

export interface SoakUpstream {
  /** The API base for NUXT_OPENROUTER_BASE_URL. */
  base: string
  /** `127.0.0.1:<port>`, for NUXT_FETCH_ALLOWED_HOSTS. */
  host: string
  record: UpstreamRecord
  close: () => Promise<void>
}

export interface SoakUpstreamOptions {
  /** Chunks of the final answer. @default 20 */
  answerChunks?: number
  /** Delay between streamed chunks, ms. @default 60 */
  chunkDelayMs?: number
  /** How long a page takes to answer, ms (a kill can land while fetch_web_page runs). @default 400 */
  pageDelayMs?: number
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'gen-soak', object: 'chat.completion.chunk', created: 1, model: 'soak/model', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`
}

interface WireMessage { role?: string, content?: unknown, tool_call_id?: string, tool_calls?: unknown[] }

/** The SSE frames answering one model request of a chat. */
function framesFor(messages: WireMessage[], pageBase: string, answerChunks: number): string[] {
  const plan = /soak chat (\d+) plan ([a-z,]*)/.exec(String(messages.find(message => message.role === 'user')?.content ?? ''))
  const chat = Number(plan?.[1] ?? -1)
  const tools = (plan?.[2] ?? '').split(',').filter(Boolean) as SoakTool[]
  const answered = messages.filter(message => message.role === 'assistant' && message.tool_calls?.length).length
  const next = tools[answered]
  if (next) {
    const callId = `call_${chat}_${answered}`
    const call = next === 'calc'
      ? { name: 'calculate', arguments: JSON.stringify({ expression: `${chat} * 7 + ${answered}` }) }
      : { name: 'fetch_web_page', arguments: JSON.stringify({ url: `${pageBase}/page/${chat}-${answered}` }) }
    return [
      chunk({ role: 'assistant', content: '' }),
      chunk({ tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: call.arguments } }] }),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ]
  }
  const words = Array.from({ length: answerChunks }, (_, index) => `w${index + 1} `)
  return [chunk({ role: 'assistant', content: '' }), ...words.map(word => chunk({ content: word })), chunk({}, 'stop'), 'data: [DONE]\n\n']
}

/** Starts the upstream on a free loopback port. */
export async function startSoakUpstream(options: SoakUpstreamOptions = {}): Promise<SoakUpstream> {
  const { answerChunks = 20, chunkDelayMs = 60, pageDelayMs = 400 } = options
  const record: UpstreamRecord = { modelRequests: new Map(), pageReads: new Map(), repeatedToolMessages: [] }
  let pageBase = ''

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname
    const page = /^\/page\/(\d+-\d+)$/.exec(path)
    if (page) {
      record.pageReads.set(page[1]!, (record.pageReads.get(page[1]!) ?? 0) + 1)
      await sleep(pageDelayMs)
      response.writeHead(200, { 'content-type': 'text/plain' })
      response.end(`Page ${page[1]}: the soak's page text.`)
      return
    }
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ data: [{ id: 'soak/model', context_length: 8192, supported_parameters: ['tools'] }] }))
      return
    }
    let text = ''
    for await (const part of request) text += part
    let body: { messages?: WireMessage[] } = {}
    try {
      body = JSON.parse(text) as typeof body
    }
    catch {}
    const messages = Array.isArray(body.messages) ? body.messages : []
    const chat = Number(/soak chat (\d+)/.exec(String(messages.find(message => message.role === 'user')?.content ?? ''))?.[1] ?? -1)
    record.modelRequests.set(chat, (record.modelRequests.get(chat) ?? 0) + 1)
    const answeredIds = messages.filter(message => message.role === 'tool').map(message => String(message.tool_call_id))
    for (const [index, id] of answeredIds.entries()) {
      if (answeredIds.indexOf(id) !== index) record.repeatedToolMessages.push(`${chat}: ${id}`)
    }
    let open = true
    response.on('close', () => { open = false })
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    for (const frame of framesFor(messages, pageBase, answerChunks)) {
      if (!open) return
      response.write(frame)
      await sleep(chunkDelayMs)
    }
    response.end()
  }

  const server = await startLoopbackServer((request, response) => {
    answer(request, response).catch(() => response.destroy())
  })
  pageBase = server.url
  return { base: `${server.url}/api/v1`, host: server.url.replace('http://', ''), record, close: server.close }
}
