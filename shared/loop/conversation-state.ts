import type { AssistantMessage, ModelMessage, TokenUsage, ToolCall, ToolMessage } from '../types/chat'
import type { ToolResult, ToolResultStatus } from '../tools/tool-types'
import type { LoopEvent, ToolApprovalDecision } from './loop-event'
import type { LoopFailure, LoopFinishReason, LoopNotice } from './loop-types'

/**
 * Where a call stands: named while streaming ('queued'), waiting for the user ('awaiting-approval'), decided to run
 * ('cleared'), its handler started ('running'), or ended with its result's status.
 */
export type CallStatus = 'queued' | 'awaiting-approval' | 'cleared' | 'running' | ToolResultStatus

export interface CallState {
  callId: string
  toolName: string
  step: number
  /** Its position among the step's calls (the model's order). */
  index: number
  status: CallStatus
  /** The call as it runs or would run: the model's arguments, or the user's edit at approval. Absent while only queued. */
  call?: ToolCall
  /** What decided whether it runs (see the `tool-call-approval` event). */
  decision?: ToolApprovalDecision
  /** The handler's last progress report. */
  statusText?: string
  result?: ToolResult
}

/** The last step started: what streamed of it, and its reply once complete. */
export interface StepState {
  number: number
  text: string
  reasoning: string
  /** The model's reply (`step-finish`), with the arguments the user edited at approval; absent while it streams. */
  message?: AssistantMessage
  /** The provider's finish reason, or 'aborted' / 'error' when the step was cut. */
  finishReason?: string
  usage?: TokenUsage
}

export interface RunEnd {
  finishReason: LoopFinishReason
  steps: number
  error?: LoopFailure
}

/**
 * One conversation as its LoopEvents left it, whoever folds them (the server job that appends them, a tab that
 * reads them, or the loop that resumes a cut step). Plain JSON data, never changed in place: every fold returns a
 * new state sharing what did not change, so "what changed" is a reference comparison.
 */
export interface ConversationState {
  /**
   * The history: the messages the state was created with, then one assistant message per finished step that said
   * or called something, followed by one tool message per ended call in the model's order.
   */
  messages: ModelMessage[]
  /** Every call of the run, by id. */
  calls: Record<string, CallState>
  step?: StepState
  notices: Array<LoopNotice & { step: number }>
  end?: RunEnd
  /** The length of `messages` when each step started, so a step started again drops what was recorded of it. */
  stepStarts: Record<number, number>
}

export interface ConversationStateInit {
  /** The history before the events to fold. @default [] */
  messages?: ModelMessage[]
}

export function createConversationState(init: ConversationStateInit = {}): ConversationState {
  return { messages: [...(init.messages ?? [])], calls: {}, notices: [], stepStarts: {} }
}

/** Folds many events, in order, into `initial` (a fresh state by default). */
export function foldLoopEvents(events: Iterable<LoopEvent>, initial: ConversationState = createConversationState()): ConversationState {
  let state = initial
  for (const event of events) state = foldLoopEvent(state, event)
  return state
}

/** The state after one more event. Events of a step other than the last one started only update their calls. */
export function foldLoopEvent(state: ConversationState, event: LoopEvent): ConversationState {
  switch (event.type) {
    case 'step-start':
      return startStep(state, event.step)
    case 'text-delta':
    case 'reasoning-delta': {
      if (state.step?.number !== event.step) return state
      const key = event.type === 'text-delta' ? 'text' : 'reasoning'
      return { ...state, step: { ...state.step, [key]: state.step[key] + event.text } }
    }
    case 'tool-call-queued':
      if (state.calls[event.callId]) return state
      return withCall(state, { callId: event.callId, toolName: event.toolName, step: event.step, index: event.index, status: 'queued' })
    case 'step-finish':
      return finishStep(state, event)
    case 'tool-call-awaiting-approval':
      return updateCall(state, event.call.id, { status: 'awaiting-approval', call: event.call }, event.call.function.name, event.step)
    case 'tool-call-approval':
      return approveCall(state, event)
    case 'tool-call-running':
      return updateCall(state, event.call.id, { status: 'running', call: event.call }, event.call.function.name, event.step)
    case 'tool-call-status':
      return updateCall(state, event.callId, { statusText: event.text })
    case 'tool-call-done':
    case 'tool-call-error':
      return endCall(state, event.step, event.result)
    case 'notice':
      return { ...state, notices: [...state.notices, { ...event.notice, step: event.step }] }
    case 'finish':
      return { ...state, end: { finishReason: event.finishReason, steps: event.steps } }
    case 'fail':
      return { ...state, end: { finishReason: 'error', steps: event.steps, error: event.error } }
  }
}

/** The calls of one step, in the model's order. */
export function callsOfStep(state: ConversationState, step: number): CallState[] {
  return Object.values(state.calls).filter(call => call.step === step).sort((a, b) => a.index - b.index)
}

/** Whether a call has ended (it has its result). */
export function isCallEnded(call: CallState): boolean {
  return call.result !== undefined
}

/**
 * True when the last step's reply is complete and every call it made has ended: the step's messages are all in
 * `messages` and the next model request may go out.
 */
export function isStepSettled(state: ConversationState): boolean {
  const message = state.step?.message
  if (!message) return false
  return (message.tool_calls ?? []).every(call => state.calls[call.id]?.result !== undefined)
}

/** True when the last step was cut (Stop or a provider failure) rather than answered. */
export function isStepCut(state: ConversationState): boolean {
  const reason = state.step?.finishReason
  return reason === 'aborted' || reason === 'error'
}

/**
 * A step started again (a server run taken over mid-step asks the model again): what was recorded of it and of any
 * later step is dropped, so nothing shows twice.
 */
function startStep(state: ConversationState, number: number): ConversationState {
  const step: StepState = { number, text: '', reasoning: '' }
  const restarted = state.stepStarts[number]
  if (restarted === undefined) return { ...state, step, stepStarts: { ...state.stepStarts, [number]: state.messages.length } }
  const keep = <T extends { step: number }>(item: T) => item.step < number
  return {
    ...state,
    step,
    messages: state.messages.slice(0, restarted),
    calls: Object.fromEntries(Object.entries(state.calls).filter(([, call]) => keep(call))),
    notices: state.notices.filter(keep),
    stepStarts: Object.fromEntries([...Object.entries(state.stepStarts).filter(([key]) => Number(key) < number), [number, restarted]]),
    end: undefined,
  }
}

function finishStep(state: ConversationState, event: Extract<LoopEvent, { type: 'step-finish' }>): ConversationState {
  const { message } = event
  const base = state.step?.number === event.step ? state.step : { number: event.step, text: '', reasoning: '' }
  const step: StepState = { ...base, message, finishReason: event.finishReason, ...(event.usage ? { usage: event.usage } : {}) }
  const calls = { ...state.calls }
  message.tool_calls?.forEach((call, index) => {
    calls[call.id] = { ...(calls[call.id] ?? { status: 'queued' }), callId: call.id, toolName: call.function.name, step: event.step, index, call }
  })
  const said = message.content !== null || (message.tool_calls?.length ?? 0) > 0
  return { ...state, step, calls, messages: said ? [...state.messages, message] : state.messages }
}

function approveCall(state: ConversationState, event: Extract<LoopEvent, { type: 'tool-call-approval' }>): ConversationState {
  const known = state.calls[event.callId]
  const call: ToolCall = { ...(known?.call ?? { id: event.callId, type: 'function' }), function: { name: event.toolName, arguments: event.arguments } }
  const runs = event.decision === 'auto' || event.decision === 'allowed-once' || event.decision === 'always-allowed'
  const next = updateCall(state, event.callId, { decision: event.decision, call, ...(runs ? { status: 'cleared' as const } : {}) }, event.toolName, event.step)
  if (event.arguments === event.askedArguments) return next
  // The history replays what ran: the step's reply carries the user's edit.
  const edit = (message: ModelMessage): ModelMessage => {
    if (message.role !== 'assistant' || !message.tool_calls?.some(item => item.id === event.callId)) return message
    return { ...message, tool_calls: message.tool_calls.map(item => (item.id === event.callId ? { ...item, function: { ...item.function, arguments: event.arguments } } : item)) }
  }
  const step = next.step?.message ? { ...next.step, message: edit(next.step.message) as AssistantMessage } : next.step
  return { ...next, step, messages: next.messages.map(edit) }
}

function endCall(state: ConversationState, step: number, result: ToolResult): ConversationState {
  const next = updateCall(state, result.callId, { status: result.status, result }, result.name, step)
  const tool: ToolMessage = { role: 'tool', tool_call_id: result.callId, name: result.name, content: result.content }
  const owner = next.messages.findLastIndex(message => message.role === 'assistant' && message.tool_calls?.some(call => call.id === result.callId))
  if (owner < 0) return next
  const order = (next.messages[owner] as AssistantMessage).tool_calls!.map(call => call.id)
  const rank = order.indexOf(result.callId)
  // After the reply and the results of the calls before this one, whatever order they ended in.
  let at = owner + 1
  while (at < next.messages.length) {
    const message = next.messages[at]!
    if (message.role !== 'tool' || order.indexOf(message.tool_call_id) > rank || order.indexOf(message.tool_call_id) < 0) break
    if (message.tool_call_id === result.callId) return { ...next, messages: [...next.messages.slice(0, at), tool, ...next.messages.slice(at + 1)] }
    at++
  }
  return { ...next, messages: [...next.messages.slice(0, at), tool, ...next.messages.slice(at)] }
}

function withCall(state: ConversationState, call: CallState): ConversationState {
  return { ...state, calls: { ...state.calls, [call.callId]: call } }
}

/** Patches a call, creating it when the events did not name it before (a state built from stored rows). */
function updateCall(state: ConversationState, callId: string, patch: Partial<CallState>, toolName?: string, step?: number): ConversationState {
  const known = state.calls[callId]
  const base: CallState = known ?? {
    callId, toolName: toolName ?? patch.call?.function.name ?? '', step: step ?? state.step?.number ?? 0,
    index: Object.keys(state.calls).length, status: 'queued',
  }
  return withCall(state, { ...base, ...patch })
}
