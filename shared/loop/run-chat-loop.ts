import type { AssistantMessage, ModelMessage, ToolCall, ToolMessage } from '../types/chat'
import { cancelledToolResult } from '../tools/execute-tool-calls'
import type { ToolResult } from '../tools/tool-types'
import { describeToolsForTextMode } from '../tools/text-tool-calls/index'
import type { LoopFinishReason, LoopNotice, RunChatLoopOptions, RunChatLoopResult } from './loop-types'
import type { ConversationState } from './conversation-state'
import { createEventChannel } from './event-channel'
import { toolCallEndEvent } from './loop-event'
import { describeLoopFailure } from './loop-failure'
import { createRepeatTracker } from './repeat-tracker'
import { decideToolCall } from './decide-tool-call'
import { streamStep } from './stream-step'
import type { StepOutcome } from './stream-step'
import { runToolCall } from './run-tool-call'
import { resumableReply, resumeCall } from './resume-step'
import { loopNotice } from './loop-messages'
import { TOOL_MESSAGES } from '../errors/tool-messages'

/** Content of a 'cancelled' result for calls left unrun because the provider's stream failed. */
const INTERRUPTED_CONTENT: string = TOOL_MESSAGES['tool.interrupted']

/**
 * The tool-calling loop shared by the browser and the server: stream a reply, run the tools it calls, send the
 * results back, and repeat until the model answers without calling a tool.
 *
 * Everything it does is reported as LoopEvents (loop-event.ts) to the one `onEvent` handler, in order and awaited.
 * Every step reports its assistant message exactly once (`step-finish`, also when aborted or failed), before any
 * tool runs; every call in it gets a result (run, failed, skipped as a repeat, or cancelled), so the history stays
 * valid for the next request; the run ends with one `finish` or `fail`. Provider failures and Stop resolve the
 * promise with `finishReason` 'error' / 'aborted'; it rejects only when the handler (e.g. the store) throws.
 */
export async function runChatLoop(options: RunChatLoopOptions): Promise<RunChatLoopResult> {
  const {
    model, tools, threadId, maxSteps = 10, toolCallMode = 'auto', toolTimeoutMs = 10_000,
    maxResultChars = 32_768, repeatLimit = 3,
  } = options
  const events = createEventChannel(options.onEvent)
  const signal = options.signal ?? new AbortController().signal
  const history: ModelMessage[] = [...options.messages]
  const added: ModelMessage[] = []
  const resumed = options.resume ? resumableReply(options.resume) : undefined
  const repeats = createRepeatTracker(repeatLimit, resumed ? [...options.messages, resumed] : options.messages)
  const runOptions = { tools, events, threadId, signal, toolTimeoutMs, maxResultChars }
  const textMode = toolCallMode === 'text' && tools.definitions.length > 0
  let textCallNoticeSent = false

  const finish = async (finishReason: LoopFinishReason, steps: number, error?: Error): Promise<RunChatLoopResult> => {
    if (finishReason === 'error') await events.emit({ type: 'fail', steps, error: describeLoopFailure(error) })
    else await events.emit({ type: 'finish', finishReason, steps })
    return { finishReason, messages: added, steps, ...(error ? { error } : {}) }
  }
  const notify = (step: number, notice: LoopNotice) => events.emit({ type: 'notice', step, notice })
  const append = (...messages: ModelMessage[]) => {
    history.push(...messages)
    added.push(...messages)
  }

  if (resumed) {
    // Step 1 is the half-run step: its reply is known, only its calls are left to end.
    append(resumed)
    appendToolMessages(await runStepCalls(resumed.tool_calls!, 1, options.resume))
    const ended = await afterCalls(1)
    if (ended) return ended
  }

  for (let step = resumed ? 2 : 1; ; step++) {
    if (signal.aborted) return finish('aborted', step - 1)
    await events.emit({ type: 'step-start', step })
    const outcome = await streamStep({
      model,
      // A copy: the history grows after this request, and a model may read its messages lazily.
      messages: textMode ? withToolDescription(history, describeToolsForTextMode(tools.definitions)) : [...history],
      tools: toolCallMode === 'text' ? [] : tools.definitions,
      textTools: toolCallMode === 'native' ? [] : tools.definitions,
      parameters: options.parameters,
      step,
      signal,
      events,
      onTextCall: async () => {
        if (toolCallMode !== 'auto' || textCallNoticeSent) return
        textCallNoticeSent = true
        await notify(step, loopNotice('text-tool-calls', 'loop.textToolCalls'))
      },
    })

    const assistant = assistantMessage(outcome)
    await events.emit({ type: 'step-finish', step, message: assistant, finishReason: stepFinishReason(outcome), ...(outcome.usage ? { usage: outcome.usage } : {}) })
    if (assistant.content !== null || assistant.tool_calls) append(assistant)
    const calls = outcome.toolCalls

    if (outcome.aborted || outcome.error) {
      if (calls.length > 0) {
        const content = outcome.aborted ? undefined : INTERRUPTED_CONTENT
        const results = calls.map(call => cancelledToolResult(call, Date.now(), content))
        for (const result of results) await events.emit({ type: 'tool-call-error', step, result })
        appendToolMessages(results)
      }
      return outcome.aborted ? finish('aborted', step) : finish('error', step, outcome.error)
    }
    if (calls.length === 0) return finish(outcome.finishReason === 'length' ? 'length' : 'stop', step)

    appendToolMessages(await runStepCalls(calls, step))
    const ended = await afterCalls(step)
    if (ended) return ended
  }

  /** Once a step's calls ended: Stop, or the step cap, ends the run here. */
  async function afterCalls(step: number): Promise<RunChatLoopResult | undefined> {
    if (signal.aborted) return finish('aborted', step)
    if (step < maxSteps) return undefined
    await notify(step, loopNotice('step-cap', 'loop.stepCap', { steps: maxSteps }))
    return finish('step-cap', step)
  }

  /** Ends every call of a step; with `resume`, the calls of a half-run step as that state left them. */
  async function runStepCalls(calls: ToolCall[], step: number, resume?: ConversationState): Promise<ToolResult[]> {
    const skipped = new Map<string, ToolResult>()
    for (const call of calls) {
      if (resume || !repeats.isRepeat(call)) continue
      const result = repeatedCallResult(call, repeatLimit)
      skipped.set(call.id, result)
      await notify(step, loopNotice('repeated-call', 'loop.repeatedCall', { name: call.function.name, count: repeatLimit }))
      await events.emit({ type: 'tool-call-error', step, result })
    }
    const pending = calls.filter(call => !skipped.has(call.id))
    // Each call is decided (its approval policy, maybe the user's answer) and then run on its own, so a call that
    // waits for the user holds back neither the others nor the timeouts: a tool's timer starts when it runs.
    const handlers = {
      run: (call: ToolCall) => runToolCall(call, step, runOptions),
      decideAndRun: (call: ToolCall, asked: boolean) => decideAndRun(call, step, asked),
      end: async (result: ToolResult) => {
        await events.emit(toolCallEndEvent(step, result))
        return result
      },
      isSafeToRepeat: options.isSafeToRepeat ?? (() => false),
    }
    const settled = await Promise.allSettled(pending.map(call => (resume ? resumeCall(call, resume.calls[call.id], handlers) : decideAndRun(call, step))))
    const failure = settled.find(outcome => outcome.status === 'rejected')
    if (failure) throw failure.reason
    const executed = settled.map(outcome => (outcome as PromiseFulfilledResult<ToolResult>).value)
    for (const result of executed) {
      // A result kept from before the resume was reported then.
      if (!result.truncated || resume?.calls[result.callId]?.result) continue
      await notify(step, loopNotice('truncated-result', 'loop.truncatedResult', { name: result.name, length: result.fullContent.length, max: maxResultChars }))
    }
    const byId = new Map(executed.map(result => [result.callId, result]))
    return calls.map(call => skipped.get(call.id) ?? byId.get(call.id)!)
  }

  async function decideAndRun(call: ToolCall, step: number, asked = false): Promise<ToolResult> {
    const decision = await decideToolCall(call, { step, tools, events, signal, toolPolicy: options.toolPolicy, approveToolCall: options.approveToolCall, asked })
    if ('result' in decision) {
      await events.emit(toolCallEndEvent(step, decision.result))
      return decision.result
    }
    if (decision.run !== call) replaceCallArguments(decision.run)
    return runToolCall(decision.run, step, runOptions)
  }

  /** The user edited a call's arguments: the history the model reads from now on holds what ran. */
  function replaceCallArguments(edited: ToolCall): void {
    for (const list of [history, added]) {
      const index = list.findLastIndex(message => message.role === 'assistant' && message.tool_calls?.some(call => call.id === edited.id))
      if (index < 0) continue
      const message = list[index] as AssistantMessage
      list[index] = { ...message, tool_calls: message.tool_calls!.map(call => (call.id === edited.id ? edited : call)) }
    }
  }

  function appendToolMessages(results: ToolResult[]): void {
    const messages: ToolMessage[] = results.map(result => ({ role: 'tool', tool_call_id: result.callId, name: result.name, content: result.content }))
    append(...messages)
  }
}

function assistantMessage(outcome: StepOutcome): AssistantMessage {
  return {
    role: 'assistant',
    content: outcome.text === '' ? null : outcome.text,
    ...(outcome.toolCalls.length > 0 ? { tool_calls: outcome.toolCalls } : {}),
  }
}

function stepFinishReason(outcome: StepOutcome): string {
  if (outcome.aborted) return 'aborted'
  if (outcome.error) return 'error'
  return outcome.finishReason
}

function repeatedCallResult(call: ToolCall, repeatLimit: number): ToolResult {
  const now = Date.now()
  const message = `this exact call was already made ${repeatLimit - 1} times in a row with the same arguments; not running it again. Use the results above or try something different.`
  const content = `Error: ${message}`
  return {
    callId: call.id, name: call.function.name, arguments: call.function.arguments, status: 'skipped',
    content, fullContent: content, truncated: false, error: { kind: 'repeated-call', message }, startedAt: now, finishedAt: now,
  }
}

/** Text mode: the tools are described in the system prompt; merged into an existing first system message. */
function withToolDescription(history: ModelMessage[], description: string): ModelMessage[] {
  const [first, ...rest] = history
  if (first?.role === 'system') return [{ role: 'system', content: `${description}\n\n${first.content}` }, ...rest]
  return [{ role: 'system', content: description }, ...history]
}
