import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createLoopRecorder } from '~/db/loop-recorder'
import { addMessage, listMessages, markInterrupted, MISSING_TOOL_RESULT, toModelMessages } from '~/db/messages'
import { createThread } from '~/db/threads'
import { runChatLoop } from '#shared/loop/run-chat-loop'
import { DENIED_CONTENT } from '#shared/loop/tool-approval'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ExecutableTool } from '#shared/tools/tool-types'
import { closeWaitingCalls, findWaitingCall, hasWaitingCalls, runStoredApproval, UNANSWERED_CONTENT } from '~/utils/chat/approvals/stored-approval'
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

async function answer(decision: 'allowed-once' | 'denied', argumentsText?: string) {
  const rows = await listMessages(threadId)
  const waiting = findWaitingCall(rows, 'c1')!
  const recorder = createLoopRecorder({ threadId, resumeFrom: rows, writeIntervalMs: 0 })
  await runStoredApproval({ threadId, ...waiting, tools, answer: { decision, ...(argumentsText && { arguments: argumentsText }) }, onEvent: event => recorder.record(event) })
  await recorder.settled()
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
    await answer('allowed-once', '{"city":"Lisbon"}')
    expect(ran).toEqual(['Lisbon'])
    const rows = await listMessages(threadId)
    expect(hasWaitingCalls(rows)).toBe(false)
    expect(rows.find(row => row.role === 'tool')).toMatchObject({ toolStatus: 'done', toolArguments: '{"city":"Lisbon"}', content: 'Sunny in Lisbon' })

    // going on with the chat from the stored rows: the model gets exactly this
    const model = createScriptedModel([textStep('Sunny in Lisbon.')])
    await runChatLoop({ model, messages: toModelMessages(rows), tools, threadId })
    expect(model.requests[0]!.messages).toEqual([
      user,
      { role: 'assistant', content: 'Checking. ', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lisbon"}' } }] },
      { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: 'Sunny in Lisbon' },
    ])
  })

  it('stores a declined result on Deny, and the model reads that the user declined', async () => {
    await leaveWaiting()
    await answer('denied')
    expect(ran).toEqual([])
    const rows = await listMessages(threadId)
    expect(rows.find(row => row.role === 'tool')).toMatchObject({ toolStatus: 'denied', content: DENIED_CONTENT, error: { kind: 'denied-by-user' } })
    expect(toModelMessages(rows).at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: DENIED_CONTENT })
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
})
