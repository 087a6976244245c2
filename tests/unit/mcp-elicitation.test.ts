// A running MCP call that asks the user (elicitation/create) and reports progress, against a real MCP server: the
// question reaches the call's hooks checked, the answer goes back within the call, and the call's clock follows
// progress and waits while the user answers.
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpConnection } from '#shared/mcp/mcp-connection'
import type { McpCallHooks, McpCallProgress, McpElicitationRequest } from '#shared/mcp/mcp-call-hooks'
import { ELICITATION_REFUSAL_META_KEY } from '#shared/mcp/mcp-call-hooks'
import { mcpToolHandler } from '#shared/mcp/mcp-tool-handler'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function connect(requestTimeoutMs = 5_000, elicitation = true) {
  const server = await startMcpTestServer({ interactive: true })
  cleanup.push(() => server.close())
  const connection = createMcpConnection({ url: server.url, prefix: 'test', requestTimeoutMs, elicitation })
  cleanup.push(() => connection.close())
  await connection.connect()
  return { server, connection }
}

function context(signal = new AbortController().signal) {
  return { signal, threadId: 't', callId: 'call-1', status: () => {}, settings: {} }
}

/** Hooks that record what the call brought and answer each question with `answer`. */
function recording(answer: (request: McpElicitationRequest, signal: AbortSignal) => Promise<Parameters<typeof Promise.resolve>[0]>) {
  const asked: McpElicitationRequest[] = []
  const progress: McpCallProgress[] = []
  const hooks: McpCallHooks = {
    onProgress: item => progress.push(item),
    onElicit: async (request, signal) => {
      asked.push(request)
      return await answer(request, signal) as Awaited<ReturnType<NonNullable<McpCallHooks['onElicit']>>>
    },
  }
  return { hooks, asked, progress }
}

describe('an MCP call that asks the user', () => {
  it('shows the server\'s form with its defaults and sends the accepted content back within the call', async () => {
    const { server, connection } = await connect()
    const { hooks, asked } = recording(async request => ({ action: 'accept', content: { ...(request.mode === 'form' ? { name: 'Ada', age: 31 } : {}) } }))
    const text = await mcpToolHandler(connection, 'ask_profile', { callHooks: () => hooks })({}, context())
    expect(asked).toHaveLength(1)
    expect(asked[0]).toMatchObject({ mode: 'form', message: 'Tell us about you.' })
    expect(asked[0]!.mode === 'form' && asked[0]!.form.initial).toMatchObject({ age: '30', color: 'green', toppings: ['cheese'] })
    // the SDK fills in the defaults of fields the answer left out (the capability's applyDefaults)
    expect(server.elicitAnswers[0]).toEqual({ action: 'accept', content: { name: 'Ada', age: 31, score: 0.5, subscribe: true, color: 'green', size: 'l', toppings: ['cheese'] } })
    expect(text).toContain('"action":"accept"')
  })

  it('answers Decline and Cancel as the user chose', async () => {
    const { server, connection } = await connect()
    for (const action of ['decline', 'cancel'] as const) {
      await mcpToolHandler(connection, 'ask_profile', { callHooks: () => recording(async () => ({ action })).hooks })({}, context())
    }
    expect(server.elicitAnswers).toEqual([{ action: 'decline' }, { action: 'cancel' }])
  })

  it('asks to open a page (URL mode) and tells the server the user agreed, without content', async () => {
    const { server, connection } = await connect()
    const { hooks, asked } = recording(async () => ({ action: 'accept', content: { smuggled: 'x' } }))
    await mcpToolHandler(connection, 'ask_link', { callHooks: () => hooks })({}, context())
    expect(asked).toEqual([{ mode: 'url', message: 'Sign the form on our site.', url: 'https://example.com/consent?step=1', elicitationId: 'consent-1' }])
    expect(server.elicitAnswers).toEqual([{ action: 'accept' }])
  })

  it('declines a form no user should be shown, and tells the server why', async () => {
    const { server, connection } = await connect()
    const { hooks, asked } = recording(async () => ({ action: 'accept', content: {} }))
    await mcpToolHandler(connection, 'ask_hostile', { callHooks: () => hooks })({}, context())
    expect(asked).toEqual([])
    expect(server.elicitAnswers).toEqual([{ action: 'decline', _meta: { [ELICITATION_REFUSAL_META_KEY]: 'the form cannot be shown: the requested schema has 500 fields (at most 32)' } }])
  })

  it('declines when nothing in the app can ask the user', async () => {
    const { server, connection } = await connect()
    await mcpToolHandler(connection, 'ask_profile')({}, context())
    expect(server.elicitAnswers).toEqual([{ action: 'decline', _meta: { [ELICITATION_REFUSAL_META_KEY]: expect.stringMatching(/no tool call/) } }])
  })

  it('cancels the question when the user presses Stop, and the call ends', async () => {
    const { connection } = await connect()
    const stop = new AbortController()
    let questionSignal: AbortSignal | undefined
    const { hooks } = recording((_, signal) => {
      questionSignal = signal
      stop.abort(new Error('stopped by the user'))
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))
    })
    await expect(mcpToolHandler(connection, 'ask_profile', { callHooks: () => hooks })({}, context(stop.signal))).rejects.toThrow('stopped by the user')
    expect(questionSignal?.aborted).toBe(true)
  })

  it('waits for the user past the call\'s idle limit', async () => {
    const { server, connection } = await connect(300)
    const { hooks } = recording(request => new Promise(resolve => setTimeout(() => resolve({ action: 'accept', content: request.mode === 'form' ? { name: 'Slow' } : {} }), 900)))
    await mcpToolHandler(connection, 'ask_profile', { callHooks: () => hooks })({}, context())
    expect(server.elicitAnswers[0]).toMatchObject({ action: 'accept', content: { name: 'Slow' } })
  })

  it('does not declare elicitation when the host cannot ask (the server\'s own connections)', async () => {
    const { connection } = await connect(5_000, false)
    await expect(mcpToolHandler(connection, 'ask_profile', { callHooks: () => recording(async () => ({ action: 'decline' })).hooks })({}, context())).rejects.toThrow(/Method not found/)
  })
})

describe('an MCP call that reports progress', () => {
  it('hands each report to the call\'s hooks, and a call that reports is not cut off by the idle limit', async () => {
    const { server, connection } = await connect(5_000)
    const { hooks, progress } = recording(async () => ({ action: 'decline' }))
    const call = mcpToolHandler(connection, 'count_slowly', { callHooks: () => hooks })({}, context())
    await expect.poll(() => progress.length).toBe(3)
    expect(progress).toEqual([{ progress: 1, total: 3, message: 'step 1' }, { progress: 2, total: 3, message: 'step 2' }, { progress: 3, total: 3, message: 'step 3' }])
    server.releaseSlowCalls()
    expect(await call).toBe('Counted to 3.')
  })

  it('fails a call that goes silent past the idle limit, saying so', async () => {
    const { server, connection } = await connect(400)
    await expect(mcpToolHandler(connection, 'count_slowly')({}, context())).rejects.toThrow('the MCP server sent nothing for 0 s')
    server.releaseSlowCalls()
  })
})
