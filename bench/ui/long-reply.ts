import type { IncomingMessage, ServerResponse } from 'node:http'
import { startLoopbackServer, type LoopbackServer } from '../lib/loopback-server'
import { runToken, WriteLog } from './token-match'

const CODE_SAMPLES = [
  ['ts', 'export function total(items: { price: number, count: number }[]): number {\n  let sum = 0\n  for (const item of items) sum += item.price * item.count\n  return Math.round(sum * 100) / 100\n}'],
  ['python', 'def fibonacci(n: int) -> list[int]:\n    values = [0, 1]\n    while len(values) < n:\n        values.append(values[-1] + values[-2])\n    return values[:n]'],
  ['json', '{\n  "name": "plugboard",\n  "tools": ["calculate", "get_current_time"],\n  "limits": { "steps": 10, "timeoutMs": 30000 }\n}'],
  ['bash', 'for file in bench/results/*.json; do\n  jq -r \'.name + ": " + (.measuredAt)\' "$file"\ndone'],
] as const

/**
 * A markdown reply of about `tokens` tokens (4 characters each): sections with a heading, paragraphs, a list, a
 * table now and then, and a fenced code block in one of four languages. Deterministic, so runs compare.
 */
export function longMarkdownReply(tokens = 20_000): string {
  const parts: string[] = []
  let length = 0
  for (let section = 1; length < tokens * 4; section++) {
    const [language, code] = CODE_SAMPLES[section % CODE_SAMPLES.length]!
    const text = [
      `## Section ${section}: measuring what the user sees`,
      `Paragraph ${section}.1 explains **why** the list stays *instant*: only the block that changed is rendered again, with \`inline code\` and a [link](https://example.com/${section}).`,
      `Paragraph ${section}.2 goes on about frames, idle callbacks and long tasks, which are what a user feels as jank when a reply streams in quickly over a loopback connection.`,
      `- first point of section ${section}\n- second point, with **bold** text\n- third point\n  - a nested point`,
      `\`\`\`${language}\n${code}\n\`\`\``,
      section % 3 === 0 ? `| metric | value |\n|---|---|\n| section | ${section} |\n| tokens | ${tokens} |` : `> A quote in section ${section}, to vary the blocks.`,
    ].join('\n\n')
    parts.push(text)
    length += text.length + 2
  }
  return parts.join('\n\n')
}

/** Cuts a reply into deltas of `size` characters, as a model's tokens arrive. */
export function toDeltas(text: string, size = 4): string[] {
  const deltas: string[] = []
  for (let index = 0; index < text.length; index += size) deltas.push(text.slice(index, index + size))
  return deltas
}

/** Tokens of a trickled reply and the time between two of them, about a fast model's pace. */
export const TRICKLE_TOKENS = 60
const TRICKLE_GAP_MS = 40
/** The start of the prompt that asks the bench model for the trickled reply instead of the long one. */
export const TRICKLE_PROMPT = 'Trickle the short reply'
/** The prompt of run `nonce`: the model answers with that run's own words (see token-match.ts). */
export const tricklePrompt = (nonce: string) => `${TRICKLE_PROMPT}, run ${nonce}.`
const TRICKLE_NONCE = /Trickle the short reply, run ([a-z]{6})\./g
/** The upstream side of a title request (the app quotes the question in it): never a run's answer. */
const TITLE_REQUEST = 'Write a title for this conversation'

const wallClock = () => performance.timeOrigin + performance.now()

/**
 * An OpenAI-compatible model on loopback answering every chat request with `reply`, one SSE event per delta and no
 * delay (loopback speed), and listing one model for the proxy's model list. A request whose last message says
 * `tricklePrompt(nonce)` is answered with TRICKLE_TOKENS words of that run, one every 40 ms, each write's time kept in
 * `trickle` under the run's nonce. A title request gets a short title, whatever question it quotes.
 */
export function startLongReplyModel(reply: string, model = 'bench/long-markdown', trickle = new WriteLog()): Promise<LoopbackServer> {
  const deltas = toDeltas(reply)
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'gen-bench', model, object: 'chat.completion.chunk', created: 1_700_000_000, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  return startLoopbackServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname
    if (path.endsWith('/models')) {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ data: [{ id: model, name: 'Bench: long markdown', context_length: 128000, supported_parameters: ['tools'], pricing: { prompt: '0', completion: '0' } }] }))
      return
    }
    let requestBody = ''
    request.setEncoding('utf8')
    request.on('data', (part: string) => (requestBody += part))
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      if (requestBody.includes(TITLE_REQUEST)) return void response.end(chunk({ role: 'assistant', content: 'Bench reply' }) + chunk({}, 'stop') + 'data: [DONE]\n\n')
      const nonce = [...requestBody.matchAll(TRICKLE_NONCE)].at(-1)?.[1]
      if (nonce) return void trickleReply(response, nonce)
      let body = chunk({ role: 'assistant', content: '' })
      for (const delta of deltas) body += chunk({ content: delta })
      body += chunk({}, 'stop')
      body += 'data: [DONE]\n\n'
      response.end(body)
    })
  })

  function trickleReply(response: ServerResponse, nonce: string) {
    const writtenAt = trickle.begin(nonce)
    response.write(chunk({ role: 'assistant', content: '' }))
    let index = 0
    const next = () => {
      if (index === TRICKLE_TOKENS) {
        response.end(chunk({}, 'stop') + 'data: [DONE]\n\n')
        return
      }
      writtenAt[index] = wallClock()
      response.write(chunk({ content: `${runToken(nonce, index++)} ` }))
      setTimeout(next, TRICKLE_GAP_MS)
    }
    setTimeout(next, TRICKLE_GAP_MS)
  }
}
