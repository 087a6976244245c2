import { beforeEach, describe, expect, it } from 'vitest'
import { createLoopRecorder } from '~/db/loop-recorder'
import { listMessages } from '~/db/messages'
import { createThread } from '~/db/threads'
import type { MessageRecord } from '~/db/types'
import type { LoopEvent } from '#shared/loop/loop-event'
import { runChatLoop } from '#shared/loop/run-chat-loop'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ExecutableTool } from '#shared/tools/tool-types'
import { createScriptedModel, textStep, toolCallStep } from '../unit/helpers/scripted-model'
import { useFreshDatabase } from './helpers/fresh-database'

useFreshDatabase('loop-recorder-test')

let threadId: string
beforeEach(async () => {
  threadId = (await createThread()).id
})

const weather: ExecutableTool = {
  definition: { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  handler: ({ city }: { city: string }, context) => {
    context.status(`asking about ${city}`)
    return `Sunny in ${city}`
  },
}

/** What a user sees of a row: the fields the message list and the tool card read. */
function visible(rows: MessageRecord[]) {
  return rows.map(row => ({
    role: row.role, content: row.content, status: row.status, toolName: row.toolName, toolStatus: row.toolStatus,
    toolResultFull: row.toolResultFull, toolCalls: row.toolCalls, error: row.error, notice: row.notice,
  }))
}

async function recordAll(events: LoopEvent[]) {
  const recorder = createLoopRecorder({ threadId, writeIntervalMs: 0 })
  await recorder.start()
  for (const event of events) await recorder.record(event)
  await recorder.settled()
  return listMessages(threadId)
}

describe('createLoopRecorder', () => {
  it('stores one assistant row per step and one tool row per call, with its result', async () => {
    const events: LoopEvent[] = []
    const model = createScriptedModel([toolCallStep([{ name: 'get_weather', args: { city: 'Oslo' }, id: 'c1' }], 'Checking. '), textStep('Sunny.')])
    await runChatLoop({ model, messages: [{ role: 'user', content: 'Oslo?' }], tools: toolSetFromArray([weather]), threadId, onEvent: event => void events.push(event) })
    const rows = await recordAll(events)
    expect(visible(rows)).toEqual([
      expect.objectContaining({ role: 'assistant', content: 'Checking. ', status: 'complete', toolCalls: [expect.objectContaining({ id: 'c1' })] }),
      expect.objectContaining({ role: 'tool', content: 'Sunny in Oslo', status: 'complete', toolName: 'get_weather', toolStatus: 'done', toolResultFull: 'Sunny in Oslo' }),
      expect.objectContaining({ role: 'assistant', content: 'Sunny.', status: 'complete' }),
    ])
  })

  it('records events that crossed the network (JSON) exactly as it records a loop in this tab', async () => {
    const events: LoopEvent[] = []
    const localThread = threadId
    const recorder = createLoopRecorder({ threadId: localThread, writeIntervalMs: 0 })
    await recorder.start()
    const model = createScriptedModel([toolCallStep([{ name: 'get_weather', args: { city: 'Rome' }, id: 'c1' }]), textStep('Warm.')])
    await runChatLoop({
      model, messages: [{ role: 'user', content: 'Rome?' }], tools: toolSetFromArray([weather]), threadId: localThread,
      onEvent: async (event) => {
        events.push(event)
        await recorder.record(event)
      },
    })
    await recorder.settled()
    const local = visible(await listMessages(localThread))

    threadId = (await createThread()).id
    const remote = visible(await recordAll(events.map(event => JSON.parse(JSON.stringify(event)) as LoopEvent)))
    expect(remote).toEqual(local)
  })

  it('keeps a failure on the reply with the message the user sees', async () => {
    const rows = await recordAll([
      { type: 'step-start', step: 1 },
      { type: 'text-delta', step: 1, text: 'Half' },
      { type: 'step-finish', step: 1, message: { role: 'assistant', content: 'Half' }, finishReason: 'error' },
      { type: 'fail', steps: 1, error: { kind: 'stream', message: 'The provider broke off the reply.', retryable: true } },
    ])
    expect(rows).toEqual([expect.objectContaining({ role: 'assistant', content: 'Half', status: 'error', error: { kind: 'stream', message: 'The provider broke off the reply.', retryable: true } })])
  })

  it('marks a stopped reply stopped and its unfinished call cancelled, and keeps the last notice', async () => {
    const result = { callId: 'c1', name: 'slow', arguments: '{}', content: 'Cancelled by the user.', fullContent: 'Cancelled by the user.', truncated: false, startedAt: 1, finishedAt: 2 }
    const rows = await recordAll([
      { type: 'step-start', step: 1 },
      { type: 'tool-call-queued', step: 1, index: 0, callId: 'c1', toolName: 'slow' },
      { type: 'step-finish', step: 1, message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'slow', arguments: '{}' } }] }, finishReason: 'tool_calls' },
      { type: 'tool-call-running', step: 1, call: { id: 'c1', type: 'function', function: { name: 'slow', arguments: '{}' } } },
      { type: 'tool-call-error', step: 1, result: { ...result, status: 'cancelled', error: { kind: 'cancelled', message: 'Cancelled by the user.' } } },
      { type: 'notice', step: 1, notice: { kind: 'step-cap', message: 'Stopped after 1 steps.' } },
      { type: 'finish', finishReason: 'aborted', steps: 1 },
    ])
    expect(rows.map(row => [row.role, row.status, row.toolStatus ?? null])).toEqual([['assistant', 'stopped', null], ['tool', 'complete', 'cancelled']])
    expect(rows[0]!.notice).toEqual({ kind: 'step-cap', message: 'Stopped after 1 steps.' })
  })

  it('keeps every notice of a turn, in order, not only the last', async () => {
    const rows = await recordAll([
      { type: 'step-start', step: 1 },
      { type: 'text-delta', step: 1, text: 'Here.' },
      { type: 'step-finish', step: 1, message: { role: 'assistant', content: 'Here.' }, finishReason: 'stop' },
      { type: 'notice', step: 1, notice: { kind: 'truncated-result', message: 'The result of "dump" was cut.' } },
      { type: 'notice', step: 1, notice: { kind: 'step-cap', message: 'Stopped after 1 steps.' } },
      { type: 'finish', finishReason: 'stop', steps: 1 },
    ] as LoopEvent[])
    expect(rows[0]!.notices).toEqual([
      { kind: 'truncated-result', message: 'The result of "dump" was cut.' },
      { kind: 'step-cap', message: 'Stopped after 1 steps.' },
    ])
    expect(rows[0]!.notice).toEqual({ kind: 'step-cap', message: 'Stopped after 1 steps.' })
  })
})
