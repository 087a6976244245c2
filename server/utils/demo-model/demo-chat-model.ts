import type { ChatModel } from '#shared/loop/chat-model'
import { createOpenAICompatibleModel } from '#shared/stream/openai-compatible-model'
import { parseDemoRequest } from './demo-request'
import { prepareDemoReply } from './demo-reply'
import { createDemoSseStream } from './demo-sse-stream'
import { DEMO_MODEL_ID } from './demo-models'

/** Where the in-process demo pretends to live: never fetched, only named in errors. */
const DEMO_BASE_URL = 'http://plugboard-demo.invalid/v1'

/**
 * The offline demo model for chats the server runs (a workflow on `plugboard/demo`): the same request building as
 * any OpenAI-compatible model, answered in this process by the demo's script instead of over HTTP, so it needs no
 * key and no network, and what it is sent (system prompt, parameters) is built exactly as for a real model.
 */
export function createDemoChatModel(): ChatModel {
  return createOpenAICompatibleModel({
    baseURL: DEMO_BASE_URL,
    model: DEMO_MODEL_ID,
    fetch: async (_input, init) => {
      let reply
      try {
        reply = prepareDemoReply(parseDemoRequest(JSON.parse(String(init?.body))), Math.floor(Date.now() / 1000))
      }
      catch (error) {
        return new Response(JSON.stringify({ error: { message: (error as Error).message } }), { status: 400, headers: { 'content-type': 'application/json' } })
      }
      const stream = createDemoSseStream(reply.frames, { delayMs: reply.plan.chunkDelayMs, signal: init?.signal ?? undefined })
      return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } })
    },
  })
}

/** Whether a chat on `model` runs on the demo model (no key needed). */
export function isDemoModel(model: string | undefined): boolean {
  return model === DEMO_MODEL_ID
}
