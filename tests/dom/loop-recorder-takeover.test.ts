import { beforeEach, describe, expect, it } from 'vitest'
import { createLoopRecorder } from '~/db/loop-recorder'
import { listMessages } from '~/db/messages'
import { createThread } from '~/db/threads'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { ToolCall } from '#shared/types/chat'
import { useFreshDatabase } from './helpers/fresh-database'

// A chat running on the server whose instance died mid-step: another instance takes it over from the last finished
// step, so the cut step starts again with a second `step-start` of the same number. The tab must show the step
// once, as the new run wrote it, not the cut text followed by the new one.
useFreshDatabase('loop-recorder-takeover-test')

let threadId: string
beforeEach(async () => {
  threadId = (await createThread()).id
})

const call = (id: string): ToolCall => ({ id, type: 'function', function: { name: 'calculate', arguments: '{"expression":"6*7"}' } })
const result = (id: string) => ({ callId: id, name: 'calculate', arguments: '{"expression":"6*7"}', status: 'done' as const, content: '42', fullContent: '42', truncated: false, startedAt: 1, finishedAt: 2 })

const stepOne: LoopEvent[] = [
  { type: 'step-start', step: 1 },
  { type: 'tool-call-queued', step: 1, index: 0, callId: 'c1', toolName: 'calculate' },
  { type: 'step-finish', step: 1, message: { role: 'assistant', content: null, tool_calls: [call('c1')] }, finishReason: 'tool_calls' },
  { type: 'tool-call-running', step: 1, call: call('c1') },
  { type: 'tool-call-done', step: 1, result: result('c1') },
]

async function rowsAfter(events: LoopEvent[]) {
  const recorder = createLoopRecorder({ threadId, writeIntervalMs: 0 })
  await recorder.start()
  for (const event of events) await recorder.record(event)
  await recorder.settled()
  return (await listMessages(threadId)).map(row => ({ role: row.role, content: row.content, status: row.status, toolCallId: row.toolCallId }))
}

describe('a server chat step that starts again after a takeover', () => {
  it('drops the cut text of the step and keeps the text of the run that finished it', async () => {
    const rows = await rowsAfter([
      ...stepOne,
      { type: 'step-start', step: 2 },
      { type: 'text-delta', step: 2, text: 'The answer is 4' },
      { type: 'step-start', step: 2 },
      { type: 'text-delta', step: 2, text: 'The answer ' },
      { type: 'text-delta', step: 2, text: 'is 42.' },
      { type: 'step-finish', step: 2, message: { role: 'assistant', content: 'The answer is 42.' }, finishReason: 'stop' },
      { type: 'finish', finishReason: 'stop', steps: 2 },
    ])
    expect(rows).toEqual([
      { role: 'assistant', content: '', status: 'complete', toolCallId: undefined },
      { role: 'tool', content: '42', status: 'complete', toolCallId: 'c1' },
      { role: 'assistant', content: 'The answer is 42.', status: 'complete', toolCallId: undefined },
    ])
  })

  it('starts the first step again on the same reply, without the cut words', async () => {
    const rows = await rowsAfter([
      { type: 'step-start', step: 1 },
      { type: 'text-delta', step: 1, text: 'Hel' },
      { type: 'step-start', step: 1 },
      { type: 'text-delta', step: 1, text: 'Hello there.' },
      { type: 'step-finish', step: 1, message: { role: 'assistant', content: 'Hello there.' }, finishReason: 'stop' },
      { type: 'finish', finishReason: 'stop', steps: 1 },
    ])
    expect(rows).toEqual([{ role: 'assistant', content: 'Hello there.', status: 'complete', toolCallId: undefined }])
  })

  it('drops the tool cards of a cut step whose calls never finished', async () => {
    const rows = await rowsAfter([
      ...stepOne,
      { type: 'step-start', step: 2 },
      { type: 'tool-call-queued', step: 2, index: 0, callId: 'c2' },
      { type: 'step-finish', step: 2, message: { role: 'assistant', content: null, tool_calls: [call('c2')] }, finishReason: 'tool_calls' },
      { type: 'tool-call-running', step: 2, call: call('c2') },
      { type: 'step-start', step: 2 },
      { type: 'text-delta', step: 2, text: 'Done.' },
      { type: 'step-finish', step: 2, message: { role: 'assistant', content: 'Done.' }, finishReason: 'stop' },
      { type: 'finish', finishReason: 'stop', steps: 2 },
    ] as LoopEvent[])
    expect(rows.map(row => row.toolCallId ?? row.content)).toEqual(['', 'c1', 'Done.'])
  })

  it('after a reload, drops the rows of the step the thread was at when it starts again', async () => {
    const first = createLoopRecorder({ threadId, writeIntervalMs: 0 })
    await first.start()
    for (const event of [...stepOne, { type: 'step-start', step: 2 }, { type: 'text-delta', step: 2, text: 'Cut mid-wo' }] as LoopEvent[]) await first.record(event)
    await first.settled()

    // A new tab reads on from the last event it recorded (step 2), and the takeover's step 2 arrives.
    const resumed = createLoopRecorder({ threadId, writeIntervalMs: 0, resumeFrom: await listMessages(threadId), resumeStep: 2 })
    for (const event of [
      { type: 'step-start', step: 2 },
      { type: 'text-delta', step: 2, text: 'Whole sentence.' },
      { type: 'step-finish', step: 2, message: { role: 'assistant', content: 'Whole sentence.' }, finishReason: 'stop' },
      { type: 'finish', finishReason: 'stop', steps: 2 },
    ] as LoopEvent[]) await resumed.record(event)
    await resumed.settled()
    const rows = await listMessages(threadId)
    expect(rows.map(row => `${row.role}:${row.content}:${row.status}`)).toEqual(['assistant::complete', 'tool:42:complete', 'assistant:Whole sentence.:complete'])
  })
})
