import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createLoopRecorder } from '~/db/loop-recorder'
import { addMessage, listMessages, markInterrupted, MISSING_TOOL_RESULT, toModelMessages } from '~/db/messages'
import { createThread } from '~/db/threads'
import { runChatLoop } from '#shared/loop/run-chat-loop'
import { DENIED_CONTENT } from '#shared/loop/tool-approval'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ExecutableTool } from '#shared/tools/tool-types'
import { closeWaitingCalls, findWaitingCall, hasWaitingCalls, storedResume, UNANSWERED_CONTENT } from '~/utils/chat/approvals/stored-approval'
import { createScriptedModel, textStep, toolCallStep } from '../unit/helpers/scripted-model'
import { useFreshDatabase } from './helpers/fresh-database'

useFreshDatabase('approval-reload-test')

let threadId: string
beforeEach(async () => {
  threadId = (await createThread()).id
})

const ran: unknown[] = []
const weather: ExecutableTool = {
  definition: { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
  handler: ({ city }: { city: string }) => {
    ran.push(city)
    return `Sunny in ${city}`
  },
}
const tools = toolSetFromArray([weather])
const user = { role: 'user' as const, content: 'Weather in Paris?' }

/** A turn whose call waits for approval when the page goes away: the loop never hears an answer. */
async function leaveWaiting() {
  ran.length = 0
  await addMessage({ threadId, ...user, status: 'complete' })
  const recorder = createLoopRecorder({ threadId, writeIntervalMs: 0 })
  await recorder.start()
  const model = createScriptedModel([toolCallStep([{ name: 'get_weather', args: { city: 'Paris' }, id: 'c1' }], 'Checking. ')])
  void runChatLoop({
    model, messages: [user], tools, threadId, toolPolicy: () => 'ask',
    approveToolCall: () => new Promise(() => {}),
    onEvent: event => recorder.record(event),
  })
  await vi.waitFor(async () => expect((await listMessages(threadId)).some(row => row.toolStatus === 'awaiting-approval')).toBe(true))
  await recorder.settled()
}

/** Answers the waiting call as useChat does after a reload: the loop resumes the step from the rows and goes on. */
async function answer(decision: 'allowed-once' | 'denied', argumentsText?: string) {
  const rows = await listMessages(threadId)
  const recorder = createLoopRecorder({ threadId, resumeFrom: rows, writeIntervalMs: 0 })
  const model = createScriptedModel([textStep('Done.')])
  await runChatLoop({
    ...storedResume(rows, 'c1')!, model, tools, threadId, toolPolicy: () => 'ask',
    approveToolCall: async () => ({ decision, ...(argumentsText && { arguments: argumentsText }) }),
    onEvent: event => recorder.record(event),
  })
  await recorder.settled()
  return model
}

describe('a call waiting for approval across a reload', () => {
  it('is stored waiting, and start-up leaves the turn alone (not "Interrupted")', async () => {
    await leaveWaiting()
    expect(await markInterrupted({ skipThreadIds: [] })).toBe(0)
    const rows = await listMessages(threadId)
    const [, assistant, tool] = rows
    expect(assistant).toMatchObject({ role: 'assistant', status: 'complete', content: 'Checking. ' })
    expect(tool).toMatchObject({ role: 'tool', toolCallId: 'c1', toolStatus: 'awaiting-approval', toolArguments: '{"city":"Paris"}' })
    expect(hasWaitingCalls(rows)).toBe(true)
    // a waiting call has no result yet: a history built meanwhile answers it as missing, never with ''
    expect(toModelMessages(rows).at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: MISSING_TOOL_RESULT })
  })

  it('runs the call with the edited arguments once answered, and the stored history the model reads holds them', async () => {
    await leaveWaiting()
    await markInterrupted({ skipThreadIds: [] })
    const model = await answer('allowed-once', '{"city":"Lisbon"}')
    expect(ran).toEqual(['Lisbon'])
    const rows = await listMessages(threadId)
    expect(hasWaitingCalls(rows)).toBe(false)
    expect(rows.find(row => row.role === 'tool')).toMatchObject({ toolStatus: 'done', toolArguments: '{"city":"Lisbon"}', content: 'Sunny in Lisbon' })
    const expected = [
      user,
      { role: 'assistant', content: 'Checking. ', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } }] },
      { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: 'Sunny in Lisbon' },
    ]
    // the same run goes on with the chat, and the stored rows replay exactly that history
    expect(model.requests[0]!.messages).toEqual(expected)
    expect(rows.at(-1)).toMatchObject({ role: 'assistant', content: 'Done.', status: 'complete' })
    expect(toModelMessages(rows).slice(0, 3)).toEqual(expected)
  })

  it('stores a declined result on Deny, and the model reads that the user declined', async () => {
    await leaveWaiting()
    const model = await answer('denied')
    expect(ran).toEqual([])
    expect(model.requests[0]!.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: DENIED_CONTENT })
    const rows = await listMessages(threadId)
    expect(rows.find(row => row.role === 'tool')).toMatchObject({ toolStatus: 'denied', content: DENIED_CONTENT, error: { kind: 'denied-by-user' } })
    expect(toModelMessages(rows).at(-2)).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: DENIED_CONTENT })
    expect(findWaitingCall(rows, 'c1')).toBeUndefined()
  })

  it('stops asking when the user writes on instead of answering: the model reads that it never ran', async () => {
    await leaveWaiting()
    expect(await closeWaitingCalls(threadId)).toBe(1)
    const rows = await listMessages(threadId)
    expect(hasWaitingCalls(rows)).toBe(false)
    expect(findWaitingCall(rows, 'c1')).toBeUndefined()
    expect(toModelMessages(rows).at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: UNANSWERED_CONTENT })
    expect(ran).toEqual([])
  })

  it('with two calls left waiting, answering one runs it and the other waits for its card again before the chat goes on', async () => {
    ran.length = 0
    await addMessage({ threadId, ...user, status: 'complete' })
    const first = createLoopRecorder({ threadId, writeIntervalMs: 0 })
    await first.start()
    void runChatLoop({
      model: createScriptedModel([toolCallStep([{ name: 'get_weather', args: { city: 'Paris' }, id: 'c1' }, { name: 'get_weather', args: { city: 'Oslo' }, id: 'c2' }])]),
      messages: [user], tools, threadId, toolPolicy: () => 'ask', approveToolCall: () => new Promise(() => {}), onEvent: event => first.record(event),
    })
    await vi.waitFor(async () => expect((await listMessages(threadId)).filter(row => row.toolStatus === 'awaiting-approval')).toHaveLength(2))
    await first.settled()

    const rows = await listMessages(threadId)
    const recorder = createLoopRecorder({ threadId, resumeFrom: rows, writeIntervalMs: 0 })
    let answerSecond!: () => void
    const second = new Promise<void>(resolve => (answerSecond = resolve))
    const model = createScriptedModel([textStep('Both sunny.')])
    const run = runChatLoop({
      ...storedResume(rows, 'c1')!, model, tools, threadId, toolPolicy: () => 'ask',
      approveToolCall: async call => (call.id === 'c1' ? { decision: 'allowed-once' } : second.then(() => ({ decision: 'allowed-once' }))),
      onEvent: event => recorder.record(event),
    })
    await vi.waitFor(() => expect(ran).toEqual(['Paris']))
    expect(model.requests).toHaveLength(0)
    answerSecond()
    await run
    await recorder.settled()
    expect(ran).toEqual(['Paris', 'Oslo'])
    expect(model.requests[0]!.messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: 'Sunny in Paris' },
      { role: 'tool', tool_call_id: 'c2', name: 'get_weather', content: 'Sunny in Oslo' },
    ])
    expect(hasWaitingCalls(await listMessages(threadId))).toBe(false)
  })
})
