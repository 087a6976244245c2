// An upstream "OpenRouter" that misbehaves on purpose, chosen by the request's model id: it resets the connection
// mid-stream, sends garbage, stalls, redirects, echoes the key in an error, or streams without end (for
// backpressure). It records what it received and how many bytes it managed to write.
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

const chunk = (content: string) => `data: ${JSON.stringify({ id: 'gen-h', object: 'chat.completion.chunk', created: 1, model: 'h', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`

export interface HostileUpstream {
  base: string
  requests: { model: string, body: Record<string, unknown>, authorization: string }[]
  /** Bytes the endless stream has written so far. */
  endlessBytesWritten: () => number
  redirectTargetHits: () => number
  close: () => Promise<void>
}

export async function startHostileUpstream(): Promise<HostileUpstream> {
  const requests: HostileUpstream['requests'] = []
  let endlessBytes = 0
  let redirectHits = 0
  const server: Server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    if (request.url?.startsWith('/redirected')) {
      redirectHits++
      response.end('{}')
      return
    }
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ data: [{ id: 'h/good' }, { id: 'h/other' }, { id: 'h/reset' }] }))
      return
    }
    let text = ''
    for await (const part of request) text += part
    const body = JSON.parse(text || '{}') as Record<string, unknown>
    const model = String(body.model)
    requests.push({ model, body, authorization: String(request.headers.authorization) })
    const sse = () => response.writeHead(200, { 'content-type': 'text/event-stream' })
    switch (model) {
      case 'h/reset':
        sse()
        response.write(chunk('Hello '))
        setTimeout(() => response.socket?.destroy(), 50)
        return
      case 'h/garbage':
        sse()
        response.write(chunk('Hello '))
        setTimeout(() => response.write('data: <html><body>502 Bad Gateway</body></html>\n\n'), 50)
        return
      case 'h/stall':
        sse()
        response.write(chunk('Hello '))
        return
      case 'h/redirect':
        response.writeHead(307, { location: `http://127.0.0.1:${(server.address() as AddressInfo).port}/redirected` })
        response.end()
        return
      case 'h/echo-key':
        response.writeHead(400, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ error: { message: `Bad request with header ${request.headers.authorization} to http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, code: 400 } }))
        return
      case 'h/endless': {
        sse()
        const line = chunk('x'.repeat(8_000))
        const pump = () => {
          while (!response.destroyed) {
            endlessBytes += line.length
            if (!response.write(line)) return void response.once('drain', pump)
          }
        }
        pump()
        return
      }
      default:
        sse()
        response.write(chunk('All good.'))
        response.end('data: [DONE]\n\n')
    }
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    requests,
    endlessBytesWritten: () => endlessBytes,
    redirectTargetHits: () => redirectHits,
    close: () => {
      server.closeAllConnections()
      return new Promise(resolve => server.close(() => resolve()))
    },
  }
}
