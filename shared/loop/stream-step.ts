import type { ModelMessage, TokenUsage, ToolCall, ToolDefinition } from '../types/chat'
import type { ChatParameters } from '../types/chat-parameters'
import { ProviderError } from '../errors/provider-error'
import { repairToolHistory } from '../history/repair-tool-history'
import { createThinkTagSplitter } from '../stream/think-tag-splitter'
import { createToolCallAccumulator } from '../tools/tool-call-accumulator'
import type { ChatModel } from './chat-model'
import { iterateWithAbort } from './iterate-with-abort'
import type { EventChannel } from './event-channel'
import { createTextCallReader } from './text-call-reader'

export interface StreamStepOptions {
  model: ChatModel
  messages: ModelMessage[]
  /** Sent as `tools` with `toolChoice: 'auto'`; omitted when empty. */
  tools: ToolDefinition[]
  /** Offered tools whose calls are read from the text; empty: text is passed through untouched. */
  textTools: ToolDefinition[]
  parameters?: ChatParameters
  step: number
  signal: AbortSignal
  events: EventChannel
  /** Called the first time this step finds a call written as text. */
  onTextCall?: () => void | Promise<void>
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

/** One model request: reports what streams in as LoopEvents and collects the visible text and the tool calls. */
export async function streamStep(options: StreamStepOptions): Promise<StepOutcome> {
  const { events, step, signal } = options
  const accumulator = createToolCallAccumulator()
  const textReader = options.textTools.length > 0 ? createTextCallReader(options.textTools) : undefined
  const textCalls: ToolCall[] = []
  // `<think>…</think>` written into the content by reasoning models without a reasoning channel.
  const thinkSplitter = createThinkTagSplitter()
  const outcome: StepOutcome = { text: '', toolCalls: [], finishReason: 'unknown', aborted: false }

  const emitText = async (part: { text: string, calls: ToolCall[] }) => {
    if (part.text) {
      outcome.text += part.text
      await events.emit({ type: 'text-delta', step, text: part.text })
    }
    for (const call of part.calls) {
      if (textCalls.length === 0) await options.onTextCall?.()
      textCalls.push(call)
      await events.emit({ type: 'tool-call-queued', step, index: textCalls.length - 1, callId: call.id, toolName: call.function.name })
    }
  }

  const onContent = async (part: { text: string, reasoning: string }) => {
    if (part.reasoning) await events.emit({ type: 'reasoning-delta', step, text: part.reasoning })
    if (part.text) await emitText(textReader ? textReader.push(part.text) : { text: part.text, calls: [] })
  }

  const request = {
    // A call cut in an earlier step (finish_reason 'length' mid-arguments) must not make a strict server refuse this one.
    messages: repairToolHistory(options.messages),
    ...(options.tools.length > 0 ? { tools: options.tools, toolChoice: 'auto' as const } : {}),
    ...(options.parameters ? { parameters: options.parameters } : {}),
    signal,
  }
  try {
    for await (const event of iterateWithAbort(options.model.stream(request), signal)) {
      if (event.type === 'text-delta') await onContent(thinkSplitter.push(event.text))
      else if (event.type === 'reasoning-delta') await events.emit({ type: 'reasoning-delta', step, text: event.text })
      else if (event.type === 'tool-call-delta') {
        const announced = accumulator.push(event)
        if (announced) await events.emit({ type: 'tool-call-queued', step, index: announced.index, callId: announced.id, toolName: announced.name })
      }
      else if (event.type === 'usage') outcome.usage = { ...outcome.usage, ...event.usage }
      else if (event.type === 'finish') outcome.finishReason = event.reason
      else if (event.type === 'error') {
        outcome.error = event.error
        break
      }
      else if (event.type === 'done') break
    }
  }
  catch (error) {
    // A failing listener is a failure of the run, not of the provider: let it reject the loop.
    await events.drain()
    if (signal.aborted) outcome.aborted = true
    else outcome.error = ProviderError.isInstance(error) ? error : toError(error)
  }
  if (signal.aborted) outcome.aborted = true
  // Flush even after an abort or error: held-back text is still part of what the user saw being written.
  await onContent(thinkSplitter.flush())
  if (textReader) await emitText(textReader.flush())
  outcome.toolCalls = [...accumulator.calls(), ...textCalls]
  return outcome
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}
