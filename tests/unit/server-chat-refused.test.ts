import { afterEach, describe, expect, it, vi } from 'vitest'
import { describeLoopFailure } from '#shared/loop/loop-failure'
import { toolSetFromArray } from '#shared/tools/tool-set'
import { startServerChat } from '~/utils/chat/server-chats/server-chat'

// A server past its caps on unfinished chats answers POST /api/chats with 429 and a message saying what to do: the
// reply's error must carry those words to the user, not "Something went wrong".

afterEach(() => {
  vi.unstubAllGlobals()
})

const CAP_MESSAGE = 'You already have 10 replies running or waiting on the server, the most one browser may have. Wait for one to finish (or stop one), then send again.'

function answering(status: number, body: unknown) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })))
}

const start = () => startServerChat({ threadId: 't1', model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: toolSetFromArray([]), toolCallMode: 'auto', maxSteps: 10 })

describe('a chat the server refuses to start', () => {
  it('shows the server\'s 429 message as it is', async () => {
    answering(429, { statusCode: 429, statusMessage: 'Too Many Requests', message: CAP_MESSAGE })
    const error = await start().then(() => undefined, (caught: unknown) => caught)
    expect(describeLoopFailure(error)).toMatchObject({ message: CAP_MESSAGE })
  })

  it('says which HTTP status it got when the server gave no message', async () => {
    answering(400, {})
    const error = await start().then(() => undefined, (caught: unknown) => caught)
    expect(describeLoopFailure(error)).toMatchObject({ message: 'The server could not start the chat (HTTP 400).' })
  })
})
