// Property test of the one fold: a server job folds its own events from the state it saved after its last finished
// step (and, after a takeover, the events of the cut step and of the run that went on); a tab folds every event it
// received from the start. Wherever the run was cut, and whether the next run asked the step again or finished its
// calls, both end with the same history, the same last step and calls, and the same end as a run never cut.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { callsOfStep, createConversationState, foldLoopEvent, foldLoopEvents, isStepCut, isStepSettled } from '#shared/loop/conversation-state'
import type { ConversationState } from '#shared/loop/conversation-state'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { ToolResult } from '#shared/tools/tool-types'
import type { ModelMessage, ToolCall } from '#shared/types/chat'
import { fuzzOptions } from '~~/tests/unit/helpers/fuzz-options'

interface CallScript { name: string, edited: boolean, outcome: 'done' | 'error' | 'denied', order: number, status: boolean }
interface StepScript { text: string[], reasoning: boolean, calls: CallScript[] }

const callScript = fc.record({
  name: fc.constantFrom('search', 'get_weather'),
  edited: fc.boolean(),
  outcome: fc.constantFrom('done', 'error', 'denied'),
  order: fc.nat(5),
  status: fc.boolean(),
}) as fc.Arbitrary<CallScript>
const stepScript = (calls: fc.Arbitrary<CallScript[]>) => fc.record({ text: fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }), reasoning: fc.boolean(), calls })
const runScript = fc.tuple(fc.array(stepScript(fc.array(callScript, { minLength: 1, maxLength: 3 })), { maxLength: 3 }), stepScript(fc.constant([])))
  .map(([tools, last]) => [...tools, last])

/** A step's events as the loop emits them: streamed text and calls, the reply, then each call decided and ended. */
function stepEvents(script: StepScript, step: number, variant: string): LoopEvent[] {
  const calls: ToolCall[] = script.calls.map((call, index) => ({ id: `call_${step}_${index}`, type: 'function', function: { name: call.name, arguments: `{"v":"${variant}"}` } }))
  const text = script.text.join('')
  const events: LoopEvent[] = [{ type: 'step-start', step }]
  if (script.reasoning) events.push({ type: 'reasoning-delta', step, text: `thinking ${variant}` })
  for (const part of script.text) events.push({ type: 'text-delta', step, text: part })
  calls.forEach((call, index) => events.push({ type: 'tool-call-queued', step, index, callId: call.id, toolName: call.function.name }))
  events.push({ type: 'step-finish', step, message: { role: 'assistant', content: text === '' ? null : text, ...(calls.length ? { tool_calls: calls } : {}) }, finishReason: calls.length ? 'tool_calls' : 'stop' })
  // Calls run concurrently: each call's own events stay in order, the calls interleave.
  const lanes = script.calls.map((call, index) => callEvents(call, calls[index]!, step, variant))
  const byOrder = script.calls.map((call, index) => ({ lane: lanes[index]!, order: call.order })).sort((a, b) => a.order - b.order)
  while (byOrder.some(item => item.lane.length > 0)) {
    for (const item of byOrder) if (item.lane.length > 0) events.push(item.lane.shift()!)
  }
  return events
}

function callEvents(script: CallScript, call: ToolCall, step: number, variant: string): LoopEvent[] {
  const argumentsText = script.edited ? `{"v":"edited ${variant}"}` : call.function.arguments
  const ran = { ...call, function: { ...call.function, arguments: argumentsText } }
  const result = (status: ToolResult['status']): ToolResult => ({
    callId: call.id, name: call.function.name, arguments: argumentsText, status, content: `${status} ${variant}`, fullContent: '', truncated: false, startedAt: 0, finishedAt: 0,
  })
  const decided = { type: 'tool-call-approval', step, callId: call.id, toolName: call.function.name, arguments: argumentsText, askedArguments: call.function.arguments, decidedAt: 0 } as const
  if (script.outcome === 'denied') return [{ type: 'tool-call-awaiting-approval', step, call }, { ...decided, decision: 'denied' }, { type: 'tool-call-error', step, result: result('denied') }]
  return [
    { ...decided, decision: script.edited ? 'allowed-once' : 'auto' },
    { type: 'tool-call-running', step, call: ran },
    ...(script.status ? [{ type: 'tool-call-status', step, callId: call.id, text: 'working' } as const] : []),
    script.outcome === 'done' ? { type: 'tool-call-done', step, result: result('done') } : { type: 'tool-call-error', step, result: result('error') },
  ]
}

function runEvents(steps: StepScript[], variant: string, from = 1): LoopEvent[] {
  const events = steps.slice(from - 1).flatMap((script, index) => stepEvents(script, from + index, variant))
  return [...events, { type: 'finish', finishReason: 'stop', steps: steps.length }]
}

const history: ModelMessage[] = [{ role: 'user', content: 'Go.' }]

/** What the job saves as it goes: the history through its last finished step with calls, and the id of its last event. */
function savePoints(events: LoopEvent[]): Array<{ messages: ModelMessage[], through: number, step: number }> {
  let state = createConversationState({ messages: history })
  const points = [{ messages: history, through: 0, step: 0 }]
  let saved = 0
  events.forEach((event, index) => {
    state = foldLoopEvent(state, event)
    const step = state.step
    if (step && step.number > saved && step.message?.tool_calls?.length && !isStepCut(state) && isStepSettled(state)) {
      saved = step.number
      points.push({ messages: state.messages, through: index + 1, step: saved })
    }
  })
  return points
}

const sharedPart = (state: ConversationState) => ({
  messages: state.messages, step: state.step, calls: state.step ? callsOfStep(state, state.step.number) : [], end: state.end,
})

describe('the fold of a server job and the fold of a tab', () => {
  it('agree after a takeover at any event, whether the step is asked again or its calls are finished (3,000 runs)', () => {
    fc.assert(fc.property(runScript, fc.nat(), fc.nat(), (steps, cutSeed, chunkSeed) => {
      const first = runEvents(steps, 'first')
      const cut = cutSeed % first.length
      const before = first.slice(0, cut)
      const points = savePoints(before)
      const saved = points.at(-1)!
      const cutState = foldLoopEvents(before)
      const cutStep = cutState.step?.number ?? 1
      // The taker-over asks the cut step again unless its reply was recorded with calls; then it ends those calls.
      const resumable = cutState.step?.message?.tool_calls?.length && !isStepCut(cutState) && !isStepSettled(cutState)
      const goesOnAt = resumable ? cutStep + 1 : saved.step + 1
      const takeover = [...(resumable ? first.slice(cut).filter(event => 'step' in event && event.step === cutStep) : []), ...runEvents(steps, 'second', goesOnAt)]
      const appended = [...before, ...takeover]

      const server = foldLoopEvents(appended.slice(saved.through), createConversationState({ messages: saved.messages }))
      // The tab reads the stream in pages of any size; a page boundary changes nothing.
      let tab = createConversationState({ messages: history })
      const page = 1 + (chunkSeed % 7)
      for (let start = 0; start < appended.length; start += page) tab = foldLoopEvents(appended.slice(start, start + page), tab)

      expect(sharedPart(server)).toEqual(sharedPart(tab))
      // And both equal a run that was never cut: the first run's finished steps, then the second run's.
      const uncut = [...first.filter(event => 'step' in event && event.step < goesOnAt), ...runEvents(steps, 'second', goesOnAt)]
      expect(sharedPart(tab)).toEqual(sharedPart(foldLoopEvents(uncut, createConversationState({ messages: history }))))
      expect(tab.end).toEqual({ finishReason: 'stop', steps: steps.length })
    }), fuzzOptions(3000))
  })
})
