import { beforeEach, describe, expect, it } from 'vitest'
import { createAuditRecorder, type AuditRecorder } from '~/db/audit-recorder'
import { getDatabase } from '~/db/database'
import { createThread, deleteThread } from '~/db/threads'
import type { AuditRecord } from '~/db/types'
import type { LoopEvent } from '#shared/loop/loop-event'
import { runChatLoop } from '#shared/loop/run-chat-loop'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ExecutableTool, ToolResult } from '#shared/tools/tool-types'
import { createScriptedModel, textStep, toolCallStep } from '../unit/helpers/scripted-model'
import { useFreshDatabase } from './helpers/fresh-database'

useFreshDatabase('audit-recorder-test')

let threadId: string
beforeEach(async () => {
  threadId = (await createThread('Weather talk')).id
})

const tool = (name: string, handler: ExecutableTool['handler'], properties: Record<string, unknown> = { city: { type: 'string' } }): ExecutableTool => ({
  definition: { type: 'function', function: { name, parameters: { type: 'object', properties, additionalProperties: false } } },
  handler,
})
const weather = tool('get_weather', ({ city }: { city: string }) => `Sunny in ${city}`)
const broken = tool('broken', () => { throw new Error('the tool broke') })

/** Runs a real loop with a scripted model, every event going to the audit recorder, and returns the log. */
async function runAndLog(steps: Parameters<typeof createScriptedModel>[0], tools: ExecutableTool[], extra: { signal?: AbortSignal, maxResultChars?: number } = {}) {
  const recorder = createAuditRecorder()
  await runChatLoop({
    model: createScriptedModel(steps),
    messages: [{ role: 'user', content: 'hi' }],
    tools: toolSetFromArray(tools),
    threadId,
    ...extra,
    onEvent: event => recorder.record(event, threadId),
  })
  await recorder.settled()
  return log()
}

const log = (): Promise<AuditRecord[]> => getDatabase().audit.orderBy('startedAt').toArray()

function result(callId: string, fields: Partial<ToolResult> = {}): ToolResult {
  return { callId, name: 'get_weather', arguments: '{"city":"Oslo"}', status: 'done', content: 'Sunny', fullContent: 'Sunny', truncated: false, startedAt: 1000, finishedAt: 1250, ...fields }
}

async function replay(recorder: AuditRecorder, events: LoopEvent[]) {
  for (const event of events) await recorder.record(event, threadId)
  await recorder.settled()
}

describe('audit recorder', () => {
  it('logs a run that succeeded: tool, arguments, status, duration, result size, the chat, no approval step', async () => {
    const [row, ...rest] = await runAndLog([toolCallStep([{ name: 'get_weather', args: { city: 'Oslo' }, id: 'call_1' }]), textStep('Sunny.')], [weather])
    expect(rest).toEqual([])
    expect(row).toMatchObject({
      toolName: 'get_weather', toolCallId: 'call_1', threadId, threadTitle: 'Weather talk', status: 'done',
      argumentsAsked: '{"city":"Oslo"}', argumentsRun: '{"city":"Oslo"}', resultBytes: 'Sunny in Oslo'.length, truncated: false,
    })
    expect(row!.decision).toBeUndefined()
    expect(row!.decidedAt).toBeUndefined()
    expect(row!.durationMs).toBe(row!.finishedAt! - row!.startedAt)
    expect(row!.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('logs a failing tool as error with its message, and bad arguments as error too', async () => {
    const rows = await runAndLog([
      toolCallStep([{ name: 'broken', id: 'call_broken' }, { name: 'get_weather', rawArguments: '{"city": 7}', id: 'call_bad' }]),
      textStep('Sorry.'),
    ], [weather, broken])
    const byId = Object.fromEntries(rows.map(row => [row.toolCallId, row]))
    expect(byId.call_broken).toMatchObject({ status: 'error', toolName: 'broken' })
    expect(byId.call_broken!.error).toContain('the tool broke')
    expect(byId.call_bad).toMatchObject({ status: 'error', argumentsAsked: '{"city": 7}' })
    expect(byId.call_bad!.error).toMatch(/city/)
  })

  it('logs a call the user stopped as cancelled', async () => {
    const controller = new AbortController()
    const slow = tool('slow', (_args, context) => new Promise((_resolve, reject) => {
      context.signal.addEventListener('abort', () => reject(new Error('aborted')))
      queueMicrotask(() => controller.abort())
    }), {})
    const [row] = await runAndLog([toolCallStep([{ name: 'slow', id: 'call_slow' }]), textStep('never')], [slow], { signal: controller.signal })
    expect(row).toMatchObject({ toolName: 'slow', status: 'cancelled' })
  })

  it('logs a repeated call the loop did not run again as skipped', async () => {
    const same = { name: 'get_weather', args: { city: 'Oslo' } }
    const rows = await runAndLog([
      toolCallStep([same]), toolCallStep([same]), toolCallStep([same]), toolCallStep([same]), textStep('done'),
    ], [weather])
    // the loop runs the same call twice, then refuses the repeats without running them
    expect(rows.map(row => row.status).sort()).toEqual(['done', 'done', 'skipped', 'skipped'])
    expect(rows.filter(row => row.status === 'skipped').every(row => row.argumentsRun === undefined)).toBe(true)
  })

  it('records a cut result as truncated, with the whole result\'s size in UTF-8 bytes', async () => {
    const big = tool('big', () => 'é'.repeat(5000), {})
    const [row] = await runAndLog([toolCallStep([{ name: 'big', id: 'call_big' }]), textStep('ok')], [big], { maxResultChars: 100 })
    expect(row).toMatchObject({ status: 'done', truncated: true, resultBytes: 10_000 })
  })

  it('records an approval with edited arguments: decision, when, asked and run arguments', async () => {
    const recorder = createAuditRecorder()
    const call = { id: 'call_ask', type: 'function' as const, function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }
    await replay(recorder, [{ type: 'tool-call-awaiting-approval', step: 1, call }])
    expect((await log())[0]).toMatchObject({ status: 'awaiting-approval', argumentsAsked: '{"city":"Oslo"}' })
    await replay(recorder, [
      { type: 'tool-call-approval', step: 1, callId: 'call_ask', toolName: 'get_weather', decision: 'allowed-once', arguments: '{"city":"Bergen"}', askedArguments: '{"city":"Oslo"}', decidedAt: 5000 },
      { type: 'tool-call-running', step: 1, call: { ...call, function: { ...call.function, arguments: '{"city":"Bergen"}' } } },
      { type: 'tool-call-done', step: 1, result: result('call_ask', { arguments: '{"city":"Bergen"}', startedAt: 5001, finishedAt: 5101 }) },
    ])
    const rows = await log()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      status: 'done', decision: 'allowed-once', decidedAt: 5000, argumentsAsked: '{"city":"Oslo"}', argumentsRun: '{"city":"Bergen"}', durationMs: 100,
    })
  })

  for (const decision of ['denied', 'never'] as const) {
    it(`logs a call refused (${decision}) as denied, with no arguments run, even when the loop ends it as an error`, async () => {
      const recorder = createAuditRecorder()
      await replay(recorder, [
        { type: 'tool-call-approval', step: 1, callId: 'call_no', toolName: 'get_weather', decision, arguments: '{"city":"Oslo"}', askedArguments: '{"city":"Oslo"}', decidedAt: 7000 },
        { type: 'tool-call-error', step: 1, result: result('call_no', { status: 'error', content: 'The user declined.', fullContent: 'The user declined.', error: { kind: 'execution', message: 'The user declined.' } }) },
      ])
      const [row] = await log()
      expect(row).toMatchObject({ status: 'denied', decision, decidedAt: 7000 })
      expect(row!.argumentsRun).toBeUndefined()
    })
  }

  it('records "always-allowed" and "auto" decisions as they come', async () => {
    const recorder = createAuditRecorder()
    await replay(recorder, [
      { type: 'tool-call-approval', step: 1, callId: 'a', toolName: 'get_weather', decision: 'always-allowed', arguments: '{}', askedArguments: '{}', decidedAt: 1 },
      { type: 'tool-call-approval', step: 1, callId: 'b', toolName: 'get_weather', decision: 'auto', arguments: '{}', askedArguments: '{}', decidedAt: 2 },
      { type: 'tool-call-done', step: 1, result: result('a') },
      { type: 'tool-call-done', step: 1, result: result('b') },
    ])
    expect((await log()).map(row => [row.toolCallId, row.decision, row.status]).sort()).toEqual([['a', 'always-allowed', 'done'], ['b', 'auto', 'done']])
  })

  it('keeps the log when the chat is deleted', async () => {
    await runAndLog([toolCallStep([{ name: 'get_weather', args: { city: 'Oslo' } }]), textStep('ok')], [weather])
    await deleteThread(threadId)
    const [row] = await log()
    expect(row).toMatchObject({ threadId, threadTitle: 'Weather talk', status: 'done' })
  })

  it('a reopened tab reading on a server-run chat finishes the row the first recording opened', async () => {
    const call = { id: 'call_srv', type: 'function' as const, function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }
    await replay(createAuditRecorder(), [{ type: 'tool-call-running', step: 1, call }])
    await replay(createAuditRecorder(), [{ type: 'tool-call-done', step: 1, result: result('call_srv') }, { type: 'finish', finishReason: 'stop', steps: 1 }])
    const rows = await log()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ status: 'done', argumentsRun: '{"city":"Oslo"}', durationMs: 250 })
  })

  it('a call id the model uses again later is a new run, not the old row', async () => {
    const recorder = createAuditRecorder()
    await replay(recorder, [
      { type: 'tool-call-done', step: 1, result: result('call_0') },
      { type: 'tool-call-done', step: 2, result: result('call_0', { status: 'error', error: { kind: 'execution', message: 'boom' } }) },
    ])
    expect((await log()).map(row => row.status).sort()).toEqual(['done', 'error'])
  })

  it('keeps the chats apart: the same call id in two chats is two rows', async () => {
    const other = (await createThread('Other')).id
    const recorder = createAuditRecorder()
    const call = { id: 'call_1', type: 'function' as const, function: { name: 'get_weather', arguments: '{}' } }
    await recorder.record({ type: 'tool-call-running', step: 1, call }, threadId)
    await recorder.record({ type: 'tool-call-running', step: 1, call }, other)
    await recorder.record({ type: 'tool-call-done', step: 1, result: result('call_1') }, other)
    await recorder.settled()
    const rows = await log()
    expect(rows.map(row => [row.threadId === other ? 'other' : 'first', row.status]).sort()).toEqual([['first', 'running'], ['other', 'done']])
  })

  it('prunes runs older than the retention when it writes', async () => {
    const day = 24 * 60 * 60 * 1000
    const now = 100 * day
    await getDatabase().audit.bulkAdd([
      { id: 'old', toolName: 'x', toolCallId: 'o', argumentsAsked: '{}', status: 'done', startedAt: now - 31 * day },
      { id: 'recent', toolName: 'x', toolCallId: 'r', argumentsAsked: '{}', status: 'done', startedAt: now - 29 * day },
    ])
    const recorder = createAuditRecorder({ now: () => now, cutoff: () => now - 30 * day })
    await replay(recorder, [{ type: 'tool-call-done', step: 1, result: result('call_new') }])
    expect((await log()).map(row => row.id).filter(id => id !== 'old' && id !== 'recent')).toHaveLength(1)
    expect((await log()).map(row => row.id)).not.toContain('old')
    expect((await log()).map(row => row.id)).toContain('recent')
  })

  it('a failed write is reported and does not reject into the chat', async () => {
    const errors: Error[] = []
    const recorder = createAuditRecorder({ onStorageError: error => errors.push(error) })
    getDatabase().close()
    await expect(recorder.record({ type: 'tool-call-done', step: 1, result: result('c') }, threadId)).resolves.toBeUndefined()
    expect(errors).toHaveLength(1)
  })
})
