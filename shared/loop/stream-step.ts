import type { ModelMessage, TokenUsage, ToolCall, ToolDefinition } from '../types/chat'
import { ProviderError } from '../errors/provider-error'
import { repairToolHistory } from '../history/repair-tool-history'
import { createThinkTagSplitter } from '../stream/think-tag-splitter'
import { createToolCallAccumulator } from '../tools/tool-call-accumulator'
import type { ChatModel } from './chat-model'
import { iterateWithAbort } from './iterate-with-abort'
import type { LoopCallbacks } from './loop-types'
import { createTextCallReader } from './text-call-reader'

export interface StreamStepOptions {
  model: ChatModel
  messages: ModelMessage[]
  /** Sent as `tools` with `toolChoice: 'auto'`; omitted when empty. */
  tools: ToolDefinition[]
  /** Offered tools whose calls are read from the text; empty: text is passed through untouched. */
  textTools: ToolDefinition[]
  step: number
  signal: AbortSignal
  callbacks: LoopCallbacks
  /** Called the first time this step finds a call written as text. */
  onTextCall?: () => void
}

export interface StepOutcome {
  text: string
  /** Native calls first (by index), then calls found in the text, in the order written. */
  toolCalls: ToolCall[]
  finishReason: string
  usage?: TokenUsage
  aborted: boolean
  error?: ProviderError | Error
}

/** One model request: streams its events to the callbacks and collects the visible text and the tool calls. */
export async function streamStep(options: StreamStepOptions): Promise<StepOutcome> {
  const { callbacks, step, signal } = options
  const accumulator = createToolCallAccumulator()
  const textReader = options.textTools.length > 0 ? createTextCallReader(options.textTools) : undefined
  const textCalls: ToolCall[] = []
  // `<think>…</think>` written into the content by reasoning models without a reasoning channel.
  const thinkSplitter = createThinkTagSplitter()
  const outcome: StepOutcome = { text: '', toolCalls: [], finishReason: 'unknown', aborted: false }

  const emitText = (part: { text: string, calls: ToolCall[] }) => {
    if (part.text) {
      outcome.text += part.text
      callbacks.onTextDelta?.(part.text, step)
    }
    for (const call of part.calls) {
      if (textCalls.length === 0) options.onTextCall?.()
      textCalls.push(call)
      callbacks.onToolCallStreaming?.({ index: textCalls.length - 1, id: call.id, name: call.function.name }, step)
    }
  }

  const onContent = (part: { text: string, reasoning: string }) => {
    if (part.reasoning) callbacks.onReasoningDelta?.(part.reasoning, step)
    if (part.text) emitText(textReader ? textReader.push(part.text) : { text: part.text, calls: [] })
  }

  const request = {
    // A call cut in an earlier step (finish_reason 'length' mid-arguments) must not make a strict server refuse this one.
    messages: repairToolHistory(options.messages),
    ...(options.tools.length > 0 ? { tools: options.tools, toolChoice: 'auto' as const } : {}),
    signal,
  }
  try {
    for await (const event of iterateWithAbort(options.model.stream(request), signal)) {
      if (event.type === 'text-delta') onContent(thinkSplitter.push(event.text))
      else if (event.type === 'reasoning-delta') callbacks.onReasoningDelta?.(event.text, step)
      else if (event.type === 'tool-call-delta') {
        const announced = accumulator.push(event)
        if (announced) callbacks.onToolCallStreaming?.(announced, step)
      }
      else if (event.type === 'usage') {
        outcome.usage = { ...outcome.usage, ...event.usage }
        callbacks.onUsage?.(event.usage, step)
      }
      else if (event.type === 'finish') outcome.finishReason = event.reason
      else if (event.type === 'error') {
        outcome.error = event.error
        break
      }
      else if (event.type === 'done') break
    }
  }
  catch (error) {
    if (signal.aborted) outcome.aborted = true
    else outcome.error = ProviderError.isInstance(error) ? error : toError(error)
  }
  if (signal.aborted) outcome.aborted = true
  // Flush even after an abort or error: held-back text is still part of what the user saw being written.
  onContent(thinkSplitter.flush())
  if (textReader) emitText(textReader.flush())
  outcome.toolCalls = [...accumulator.calls(), ...textCalls]
  return outcome
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}
