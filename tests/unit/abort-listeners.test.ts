// A run's signal is shared by every call of every step: parallel calls, their approval waits and their timeouts
// must not each hang a listener on it (Node warns past 10 and a long run would hold them all).
import { getEventListeners } from 'node:events'
import { afterEach, describe, expect, it } from 'vitest'
import { runChatLoop } from '#shared/loop/run-chat-loop'
import { executeToolCalls } from '#shared/tools/execute-tool-calls'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ToolHandler } from '#shared/tools/tool-types'
import { onAbort } from '#shared/stream/on-abort'
import { waitForJobApproval } from '../../server/utils/background-jobs/runner/pending-approvals'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'

const CALLS = 30
const STEPS = 12

const noParameters = { type: 'object' as const, properties: {} }
const toolsWith = (handler: ToolHandler) => toolSetFromArray([{ definition: { type: 'function', function: { name: 'probe', parameters: noParameters } }, handler }])
const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length

const warnings: Error[] = []
const onWarning = (warning: Error) => void warnings.push(warning)
process.on('warning', onWarning)
afterEach(() => {
  warnings.length = 0
})

/** Node reports a listener flood on process 'warning' a tick after the listener is added. */
async function maxListenerWarnings() {
  await new Promise(resolve => setImmediate(resolve))
  return warnings.filter(warning => warning.name === 'MaxListenersExceededWarning')
}

describe('abort listeners on a run\'s signal', () => {
  it('a step of parallel calls holds one listener while they run and none after', async () => {
    const controller = new AbortController()
    const seen: number[] = []
    const tools = toolsWith(() => {
      seen.push(abortListeners(controller.signal))
      return 'ok'
    })
    const calls = Array.from({ length: CALLS }, (_, index) => ({ id: `c${index}`, type: 'function' as const, function: { name: 'probe', arguments: '{}' } }))
    const results = await executeToolCalls(calls, tools, { threadId: 't', signal: controller.signal })

    expect(results.map(result => result.status)).toEqual(Array(CALLS).fill('done'))
    expect(Math.max(...seen)).toBe(1)
    expect(abortListeners(controller.signal)).toBe(0)
    expect(await maxListenerWarnings()).toEqual([])
  })

  it('Stop still cancels every parallel call through the one listener', async () => {
    const controller = new AbortController()
    let started = 0
    let allStarted = () => {}
    const running = new Promise<void>(resolve => (allStarted = resolve))
    const tools = toolsWith(() => {
      if (++started === CALLS) allStarted()
      return new Promise(() => {})
    })
    const calls = Array.from({ length: CALLS }, (_, index) => ({ id: `c${index}`, type: 'function' as const, function: { name: 'probe', arguments: '{}' } }))
    const pending = executeToolCalls(calls, tools, { threadId: 't', signal: controller.signal })
    await running
    controller.abort()
    const results = await pending

    expect(results.map(result => result.status)).toEqual(Array(CALLS).fill('cancelled'))
    expect(abortListeners(controller.signal)).toBe(0)
  })

  it(`${STEPS} steps of ${CALLS} calls awaiting approval leave no listener behind and raise no warning`, async () => {
    const controller = new AbortController()
    const steps = Array.from({ length: STEPS }, () => toolCallStep(Array.from({ length: CALLS }, () => ({ name: 'probe' }))))
    // At each step's start the previous step's calls and approval waits have all settled.
    const afterEachStep: number[] = []
    const result = await runChatLoop({
      model: createScriptedModel([...steps, textStep('done')]),
      messages: [{ role: 'user', content: 'go' }],
      tools: toolsWith(() => 'ok'),
      threadId: 't',
      signal: controller.signal,
      repeatLimit: STEPS * CALLS + 1,
      maxSteps: STEPS + 1,
      toolPolicy: () => 'ask',
      approveToolCall: async () => ({ decision: 'allowed-once' }),
      onEvent: (event) => {
        if (event.type === 'step-start') afterEachStep.push(abortListeners(controller.signal))
      },
    })

    expect(result.finishReason).toBe('stop')
    expect(afterEachStep).toHaveLength(STEPS + 1)
    expect(Math.max(...afterEachStep)).toBeLessThanOrEqual(1)
    expect(abortListeners(controller.signal)).toBe(0)
    expect(await maxListenerWarnings()).toEqual([])
  })

  it('background chats waiting for approvals share one listener, and Stop rejects every wait', async () => {
    const controller = new AbortController()
    const waits = Array.from({ length: CALLS }, (_, index) => waitForJobApproval({ jobId: 'job', callId: `c${index}`, toolName: 'probe', signal: controller.signal, timeoutMs: 60_000 }))
    expect(abortListeners(controller.signal)).toBe(1)
    controller.abort(new Error('stopped'))
    const settled = await Promise.allSettled(waits)

    expect(settled.every(outcome => outcome.status === 'rejected')).toBe(true)
    expect(abortListeners(controller.signal)).toBe(0)
  })
})

describe('onAbort', () => {
  it('calls every waiter once on abort, except those that stopped listening', () => {
    const controller = new AbortController()
    const calls: string[] = []
    const stopA = onAbort(controller.signal, () => calls.push('a'))
    onAbort(controller.signal, () => calls.push('b'))
    const stopC = onAbort(controller.signal, () => calls.push('c'))
    stopA()
    stopA()
    controller.abort()
    controller.abort()
    stopC()

    expect(calls).toEqual(['b', 'c'])
    expect(abortListeners(controller.signal)).toBe(0)
  })

  it('takes its listener off the signal when the last waiter leaves, and adds it again for the next', () => {
    const controller = new AbortController()
    const stops = Array.from({ length: 20 }, () => onAbort(controller.signal, () => {}))
    expect(abortListeners(controller.signal)).toBe(1)
    for (const stop of stops) stop()
    expect(abortListeners(controller.signal)).toBe(0)

    let called = false
    onAbort(controller.signal, () => (called = true))
    expect(abortListeners(controller.signal)).toBe(1)
    controller.abort()
    expect(called).toBe(true)
  })
})
