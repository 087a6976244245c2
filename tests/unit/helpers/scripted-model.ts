import type { ChatModel, ChatModelRequest } from '#shared/loop/chat-model'
import type { StreamEvent } from '#shared/stream/stream-event'

/** One scripted reply: fixed events, or a function of the request (to assert on it or to block). */
export type ScriptedStep = StreamEvent[] | ((request: ChatModelRequest) => StreamEvent[] | AsyncIterable<StreamEvent>)

export interface ScriptedModelOptions {
  /** Pause before each event, in ms, so tests can press Stop mid-stream. @default 0 */
  delayMs?: number
}

export type ScriptedModel = ChatModel & {
  /** Every request received, deep-cloned at the time it was made (the signal is kept as is). */
  requests: ChatModelRequest[]
}

/**
 * A ChatModel that answers request N with `steps[N]`, for driving the loop and useChat in tests.
 * Honours `request.signal` like a real provider: an abort throws a DOMException named 'AbortError'.
 * A request past the end of the script throws, so a loop that asks once too often fails the test.
 */
export function createScriptedModel(steps: ScriptedStep[], options: ScriptedModelOptions = {}): ScriptedModel {
  const { delayMs = 0 } = options
  const requests: ChatModelRequest[] = []

  async function* stream(request: ChatModelRequest): AsyncGenerator<StreamEvent> {
    const { signal, ...rest } = request
    requests.push({ ...structuredClone(rest), signal })
    const step = steps[requests.length - 1]
    if (step === undefined) throw new Error(`scripted model: no step ${requests.length} in the script`)
    const events = typeof step === 'function' ? step(request) : step
    for await (const event of events) {
      if (delayMs > 0) await sleep(delayMs, signal)
      throwIfAborted(signal)
      yield event
    }
  }

  return { stream, requests }
}

/** A plain text reply, optionally cut into several deltas. */
export function textStep(text: string | string[]): StreamEvent[] {
  const parts = Array.isArray(text) ? text : [text]
  return [
    ...parts.map(part => ({ type: 'text-delta', text: part }) as const),
    { type: 'finish', reason: 'stop' },
    { type: 'done', sawDoneSentinel: true },
  ]
}

export interface ScriptedToolCall {
  name: string
  args?: unknown
  /** @default `call_<step-unique>_<index>` */
  id?: string
  /** Raw arguments text instead of JSON.stringify(args), to script broken JSON. */
  rawArguments?: string
}

let scriptedCallCount = 0

/**
 * A reply that calls tools, streamed as real providers do: id and name first, then the arguments in two fragments.
 * @param text Visible text written before the calls.
 */
export function toolCallStep(calls: ScriptedToolCall[], text?: string): StreamEvent[] {
  const events: StreamEvent[] = text ? [{ type: 'text-delta', text }] : []
  const batch = ++scriptedCallCount
  calls.forEach((call, index) => {
    const args = call.rawArguments ?? JSON.stringify(call.args ?? {})
    const half = Math.floor(args.length / 2)
    events.push(
      { type: 'tool-call-delta', index, id: call.id ?? `call_${batch}_${index}`, name: call.name, argumentsDelta: '' },
      { type: 'tool-call-delta', index, argumentsDelta: args.slice(0, half) },
      { type: 'tool-call-delta', index, argumentsDelta: args.slice(half) },
    )
  })
  events.push({ type: 'finish', reason: 'tool_calls' }, { type: 'done', sawDoneSentinel: true })
  return events
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new DOMException('The operation was aborted.', 'AbortError')
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(new DOMException('The operation was aborted.', 'AbortError'))
    }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
  })
}
