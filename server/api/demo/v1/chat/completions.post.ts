import { readDemoRequest } from '../../../../utils/demo-model/read-demo-request'
import { prepareDemoReply } from '../../../../utils/demo-model/demo-reply'
import { createDemoSseStream } from '../../../../utils/demo-model/demo-sse-stream'

/**
 * POST /api/demo/v1/chat/completions: the offline, scripted demo model, speaking OpenAI's chat-completions
 * protocol (SSE when `stream` is true, one JSON completion otherwise). The script is in server/utils/demo-model.
 * The body is bounded (413 past the chat body limit, 400 past the message and tool caps) and the script's work
 * grows linearly with the request, so one request cannot hold the event loop.
 */
export default defineEventHandler(async (event) => {
  const request = await readDemoRequest(event)
  const reply = prepareDemoReply(request, Math.floor(Date.now() / 1000))

  if (!request.stream) {
    if (reply.plan.streamError) {
      setResponseStatus(event, reply.plan.streamError.code)
      return { error: reply.plan.streamError }
    }
    return reply.completion
  }

  // Stop generating when the client goes away (Stop button, closed tab): 'close' fires on the response
  // when the connection ends, finished or not.
  const disconnected = new AbortController()
  event.node.res.on('close', () => disconnected.abort())

  setResponseHeaders(event, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'connection': 'keep-alive',
    'x-accel-buffering': 'no',
  })
  const stream = createDemoSseStream(reply.frames, { delayMs: reply.plan.chunkDelayMs, signal: disconnected.signal })
  return sendStream(event, stream)
})
