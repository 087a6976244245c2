// The probe as an attacker runs it on the server: POST /api/chats with a browser tool whose parameters
// carry a backtracking pattern, the model calls it, and the approval answer's edited arguments (or the model's
// own) are checked on the server's thread. They must be refused at once, with the schema's words.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as h3 from 'h3'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ToolDefinition } from '#shared/types/chat'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { startChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import { abortRunningJob, answerBrowserCall } from '~~/server/utils/background-jobs/runner/running-jobs'
import { answerJobApproval } from '~~/server/utils/background-jobs/runner/pending-approvals'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'
import { waitForEvent } from './helpers/job-events'

const user = { role: 'user' as const, content: 'look it up' }
const started: string[] = []
afterEach(() => {
  for (const id of started.splice(0)) abortRunningJob(id)
})

/** A browser tool as a client sends it in POST /api/chats: its parameters are the client's. */
function clientTool(name: string, pattern: string): ToolDefinition {
  return { type: 'function', function: { name, parameters: { type: 'object', properties: { q: { type: 'string', pattern } }, required: ['q'] } } }
}

async function startAsking(tool: ToolDefinition, modelArguments: Record<string, unknown>, policy: 'ask' | 'auto' = 'ask') {
  const store = createMemoryJobStore()
  const name = tool.function.name
  const model = createScriptedModel([toolCallStep([{ name, args: modelArguments, id: 'c1' }]), textStep('Done.')])
  const job = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], model, serverToolNames: [], browserTools: [tool], toolPolicies: { [name]: policy } })
  started.push(job.id)
  return { store, model, job }
}

describe('an approval answer against a client\'s backtracking pattern', () => {
  it('refuses the attacker\'s edited arguments with the schema\'s words and keeps waiting for a good answer', async () => {
    const { store, job } = await startAsking(clientTool('lookup_a', '^((a+)+|hi-mcp)$'), { q: 'hi-mcp' })
    await waitForEvent(store, job.id, event => event.type === 'tool-call-awaiting-approval')

    for (const count of [28, 100_000]) {
      const answer = answerJobApproval(job.id, 'c1', { decision: 'allowed-once', arguments: JSON.stringify({ q: `${'a'.repeat(count)}!` }) })
      expect(answer).toMatchObject({ ok: false, reason: 'invalid', message: expect.stringMatching(/^The edited arguments cannot be used: invalid arguments for "lookup_a": q: does not match the required pattern/) })
    }
    expect(answerJobApproval(job.id, 'c1', { decision: 'allowed-once', arguments: '{"q":"aaaa"}' })).toEqual({ ok: true })
    await waitForEvent(store, job.id, event => event.type === 'tool-call-approval')
    // the approved call then waits for the tab's answer; the job registers that wait a moment after the event
    await vi.waitFor(() => expect(answerBrowserCall(job.id, 'c1', { ok: true, content: 'found' })).toBe(true))
    await waitForEvent(store, job.id, event => event.type === 'finish')
  })

  it('refuses a pattern that needs backtracking with a message naming it, and the job goes on', async () => {
    const { store, job } = await startAsking(clientTool('lookup_b', '^(?=(a+)+$)hi'), { q: 'hi' })
    await waitForEvent(store, job.id, event => event.type === 'tool-call-awaiting-approval')
    const answer = answerJobApproval(job.id, 'c1', { decision: 'allowed-once', arguments: JSON.stringify({ q: `${'a'.repeat(28)}!` }) })
    expect(answer).toMatchObject({ ok: false, reason: 'invalid', message: expect.stringContaining('pattern "^(?=(a+)+$)hi" is refused: lookahead') })
    expect(answerJobApproval(job.id, 'c1', { decision: 'denied' })).toEqual({ ok: true })
    await waitForEvent(store, job.id, event => event.type === 'finish')
  })

  it('hands the model a refusal when its own arguments meet the backtracking pattern', async () => {
    const { store, model, job } = await startAsking(clientTool('lookup_c', '^((a+)+|hi-mcp)$'), { q: `${'a'.repeat(100_000)}!` }, 'auto')
    await waitForEvent(store, job.id, event => event.type === 'finish')
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'c1', content: expect.stringContaining('q: does not match the required pattern') })
  })
})

describe('POST /api/chats/:id/approvals over HTTP', () => {
  it('answers the attacker\'s 100,000 a\'s with a 400 naming the pattern problem, and serves another request meanwhile', async () => {
    const store = createMemoryJobStore()
    vi.doMock('~~/server/utils/background-jobs/store/chat-job-store', () => ({ chatJobStore: () => store }))
    vi.doMock('~~/server/utils/security/browser-session', () => ({ readBrowserSession: async () => ({ id: 's1', issuedAt: 1 }) }))
    for (const name of ['defineEventHandler', 'createError', 'getRouterParam', 'getRequestHeader'] as const) (globalThis as Record<string, unknown>)[name] = h3[name]
    ;(globalThis as Record<string, unknown>).useRuntimeConfig = () => ({ redisUrl: '' })
    const route = (await import('~~/server/api/chats/[id]/approvals.post')).default

    const tool = clientTool('lookup_d', '^((a+)+|hi-mcp)$')
    const model = createScriptedModel([toolCallStep([{ name: 'lookup_d', args: { q: 'hi-mcp' }, id: 'c1' }]), textStep('Done.')])
    const job = await startChatJob(store, { sessionId: 's1', threadId: 't1', messages: [user], model, serverToolNames: [], browserTools: [tool], toolPolicies: { lookup_d: 'ask' } })
    started.push(job.id)
    await waitForEvent(store, job.id, event => event.type === 'tool-call-awaiting-approval')

    // Nitro's error handler sends the error's message; plain h3 keeps it back, so it is read here.
    const refusals: string[] = []
    const app = h3.createApp({ onError: error => void refusals.push(error.message) })
    const router = h3.createRouter()
    router.post('/api/chats/:id/approvals', route)
    router.get('/', h3.defineEventHandler(() => 'the app'))
    app.use(router)
    const server = createServer(h3.toNodeListener(app))
    await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const [answer, page] = await Promise.all([
        fetch(`${base}/api/chats/${job.id}/approvals`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callId: 'c1', decision: 'allowed-once', arguments: JSON.stringify({ q: `${'a'.repeat(100_000)}!` }) }) }),
        fetch(`${base}/`),
      ])
      expect(answer.status).toBe(400)
      expect(refusals).toEqual([expect.stringMatching(/^The edited arguments cannot be used: invalid arguments for "lookup_d": q: does not match the required pattern/)])
      expect(await page.text()).toBe('the app')
      const good = await fetch(`${base}/api/chats/${job.id}/approvals`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callId: 'c1', decision: 'denied' }) })
      expect(await good.json()).toEqual({ id: job.id, callId: 'c1', decision: 'denied' })
    }
    finally {
      await new Promise(done => server.close(done))
      vi.doUnmock('~~/server/utils/background-jobs/store/chat-job-store')
      vi.doUnmock('~~/server/utils/security/browser-session')
    }
  })
})
