// An MCP server's question during a chat that runs on the server, against a real MCP server: the job announces it
// on its stream and parks, a tab's answer is checked against the form before it reaches the server, and a question
// nobody answers, or a job that is stopped, answers Cancel.
import { afterEach, describe, expect, it } from 'vitest'
import { createMcpConnection } from '#shared/mcp/mcp-connection'
import { ELICITATION_REFUSAL_META_KEY } from '#shared/mcp/mcp-call-hooks'
import type { McpJobQuestionEvent } from '#shared/mcp/mcp-job-question'
import { mcpToolHandler } from '#shared/mcp/mcp-tool-handler'
import type { ExecutableTool } from '#shared/tools/tool-types'
import { answerJobQuestion, jobCallHooks, markToolMayAsk, pendingJobQuestions, toolsThatMayAsk } from '../../server/utils/background-jobs/runner/job-questions'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'

const cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

let jobs = 0

/** A job of one MCP tool (`survey__<tool>`), its stream's question events, its parking, and a way to run the call. */
async function jobWith(tool: string, waitTimeoutMs = 5_000) {
  const server = await startMcpTestServer({ interactive: true })
  cleanup.push(() => server.close())
  const connection = createMcpConnection({ url: server.url, prefix: 'survey', requestTimeoutMs: 5_000, elicitation: true })
  cleanup.push(() => connection.close())
  await connection.connect()
  const name = `survey__${tool}`
  cleanup.push(markToolMayAsk(name))
  const jobId = `job-${++jobs}`
  const events: McpJobQuestionEvent[] = []
  const waits: boolean[] = []
  let asked: (event: McpJobQuestionEvent) => void = () => {}
  const question = new Promise<McpJobQuestionEvent>(resolve => (asked = resolve))
  const executable: ExecutableTool = {
    definition: { type: 'function', function: { name, parameters: { type: 'object', properties: {} } } },
    handler: mcpToolHandler(connection, tool, { callHooks: () => jobCallHooks('Survey') }),
    timeoutMs: 1_000,
  }
  const [wrapped] = toolsThatMayAsk([executable], {
    jobId, waitTimeoutMs,
    onWaiting: waiting => void waits.push(waiting),
    announce: async (event) => {
      events.push(event)
      if (event.type === 'mcp-question') asked(event)
    },
  })
  const controller = new AbortController()
  const run = () => Promise.resolve(wrapped!.handler({}, { signal: controller.signal, threadId: 't', callId: 'call-1', status: () => {}, settings: {} }))
  return { server, jobId, events, waits, question, run, wrapped: wrapped!, controller }
}

describe('MCP questions in server-run chats', () => {
  it('announces the form, parks the job, and hands a checked Accept to the server within the call', async () => {
    const job = await jobWith('ask_profile')
    expect(job.wrapped.timeoutMs).toBe(1_000 + 5_000)
    const result = job.run()
    const question = await job.question
    expect(question).toMatchObject({ type: 'mcp-question', callId: 'call-1', serverName: 'Survey', request: { mode: 'form', message: 'Tell us about you.' } })
    expect(pendingJobQuestions(job.jobId)).toEqual([question])
    // the schema's defaults travel with the form (SEP-1034)
    expect(question.type === 'mcp-question' && question.request.mode === 'form' && question.request.form.initial.age).toBe('30')

    expect(answerJobQuestion(job.jobId, { callId: 'call-1', action: 'accept', content: { name: 'Ada', age: 'thirty' } }))
      .toMatchObject({ ok: false, reason: 'invalid', message: 'The answer does not fit the form: "Age" has a value of the wrong type', text: { code: 'server.job.answerMismatch', params: { reason: '"Age" has a value of the wrong type' } } })
    expect(answerJobQuestion(job.jobId, { callId: 'call-1', action: 'accept', content: { name: 'Ada', admin: true } })).toMatchObject({ ok: false, reason: 'invalid' })
    expect(answerJobQuestion(job.jobId, { callId: 'call-1', action: 'accept', content: { email: 'not-an-email' } })).toMatchObject({ ok: false, reason: 'invalid' })
    expect(answerJobQuestion(job.jobId, { callId: 'call-1', action: 'accept', content: { name: 'Ada', color: 'purple' } })).toMatchObject({ ok: false, reason: 'invalid' })
    expect(answerJobQuestion(job.jobId, { callId: 'call-1', action: 'accept', content: { name: 'Ada', toppings: ['cheese', 'anchovies'] } })).toMatchObject({ ok: false, reason: 'invalid' })
    expect(job.server.elicitAnswers).toEqual([])

    expect(answerJobQuestion(job.jobId, { callId: 'call-1', action: 'accept', content: { name: 'Ada', email: 'ada@example.com', age: 36, toppings: ['ham'] } })).toEqual({ ok: true })
    await expect(result).resolves.toContain('The user answered')
    // what the user left out is the schema's default, as the client declared (applyDefaults)
    expect(job.server.elicitAnswers).toEqual([{ action: 'accept', content: { name: 'Ada', email: 'ada@example.com', age: 36, score: 0.5, subscribe: false, color: 'green', size: 'l', toppings: ['ham'] } }])
    expect(job.events.map(event => event.type)).toEqual(['mcp-question', 'mcp-question-end'])
    expect(job.waits).toEqual([true, false])
    expect(pendingJobQuestions(job.jobId)).toEqual([])
    // answered: a second tab's answer finds nothing waiting
    expect(answerJobQuestion(job.jobId, { callId: 'call-1', action: 'decline' })).toEqual({ ok: false, reason: 'not-waiting' })
  })

  it('passes Decline on, and a URL question is accepted without content', async () => {
    const job = await jobWith('ask_link')
    const result = job.run()
    const question = await job.question
    expect(question).toMatchObject({ request: { mode: 'url', url: 'https://example.com/consent?step=1' } })
    expect(answerJobQuestion(job.jobId, { callId: 'call-1', action: 'accept', content: { anything: 1 } })).toEqual({ ok: true })
    await result
    expect(job.server.elicitAnswers).toEqual([{ action: 'accept' }])

    const declined = await jobWith('ask_profile')
    const declinedResult = declined.run()
    await declined.question
    expect(answerJobQuestion(declined.jobId, { callId: 'call-1', action: 'decline' })).toEqual({ ok: true })
    await declinedResult
    expect(declined.server.elicitAnswers).toEqual([{ action: 'decline' }])
  })

  it('answers Cancel when nobody answers within the wait limit, and the job goes on', async () => {
    const job = await jobWith('ask_profile', 200)
    const result = job.run()
    await job.question
    await expect(result).resolves.toContain('cancel')
    expect(job.server.elicitAnswers).toEqual([{ action: 'cancel' }])
    expect(job.waits).toEqual([true, false])
    expect(job.events.at(-1)).toEqual({ type: 'mcp-question-end', callId: 'call-1' })
  })

  it('withdraws the question when the job is stopped', async () => {
    const job = await jobWith('ask_profile')
    const result = job.run()
    await job.question
    job.controller.abort(new Error('Stopped by the user.'))
    await expect(result).rejects.toThrow()
    await expect.poll(() => job.events.at(-1)).toEqual({ type: 'mcp-question-end', callId: 'call-1' })
    expect(pendingJobQuestions(job.jobId)).toEqual([])
  })

  it('outside a server-run chat the server is told that nobody can answer', async () => {
    const job = await jobWith('ask_profile')
    // the plain executable (as POST /api/tools/:name/execute runs it), not the job's
    const connection = createMcpConnection({ url: job.server.url, prefix: 'survey', elicitation: true })
    cleanup.push(() => connection.close())
    await connection.connect()
    const direct = mcpToolHandler(connection, 'ask_profile', { callHooks: () => jobCallHooks('Survey') })
    await direct({}, { signal: new AbortController().signal, threadId: 't', callId: 'c', status: () => {}, settings: {} })
    expect(job.server.elicitAnswers).toEqual([{ action: 'decline', _meta: { [ELICITATION_REFUSAL_META_KEY]: expect.stringContaining('no tool call') } }])
    expect(job.events).toEqual([])
  })
})
