import { readChatStream } from '#shared/stream/read-chat-stream'
import { createToolCallAccumulator } from '#shared/tools/tool-call-accumulator'
import type { ToolCall } from '#shared/types/chat'

/** What the loop holds of a step when its stream stops: the visible text and the accumulated calls. */
export interface CutState {
  text: string
  calls: ToolCall[]
}

export interface CutStates {
  /** `atOffset[k]`: the state after the reader got bytes[0, k) and the stream stopped there (Stop, reset). */
  atOffset: CutState[]
  /** The state once the reader finished on its own; cuts past that point change nothing. */
  finished: CutState
}

/**
 * Drives the real reader and the real accumulator over `bytes` delivered one byte at a time, the way streamStep
 * consumes them, and records the state before each byte is handed over. The body is pulled only after every event
 * of the previous bytes was consumed, so state k is exactly what a Stop or a connection reset at offset k leaves.
 */
export async function statesAtEveryOffset(bytes: Uint8Array): Promise<CutStates> {
  const accumulator = createToolCallAccumulator({ idPrefix: 'call_cut' })
  let text = ''
  const atOffset: CutState[] = []
  const snapshot = () => atOffset.push({ text, calls: accumulator.calls() })

  async function* body(): AsyncGenerator<Uint8Array> {
    for (let offset = 0; offset < bytes.length; offset++) {
      snapshot()
      yield bytes.subarray(offset, offset + 1)
    }
    snapshot()
  }

  await consume(readChatStream(body()), {
    text: delta => (text += delta),
    call: event => accumulator.push(event),
  })
  const finished = { text, calls: accumulator.calls() }
  while (atOffset.length <= bytes.length) atOffset.push(finished)
  return { atOffset, finished }
}

/**
 * The state of a stream whose body delivers bytes[0, offset) and then fails like a reset connection: computed
 * independently of statesAtEveryOffset, to check that helper against the reader on a few offsets.
 */
export async function stateAfterReset(bytes: Uint8Array, offset: number): Promise<CutState> {
  const accumulator = createToolCallAccumulator({ idPrefix: 'call_cut' })
  let text = ''
  async function* body(): AsyncGenerator<Uint8Array> {
    if (offset > 0) yield bytes.subarray(0, offset)
    throw new Error('connection reset')
  }
  try {
    await consume(readChatStream(body()), { text: delta => (text += delta), call: event => accumulator.push(event) })
  }
  catch {
    // streamStep turns this into the step's error; the calls accumulated so far are what it stores.
  }
  return { text, calls: accumulator.calls() }
}

type Events = ReturnType<typeof readChatStream>
type CallEvent = Parameters<ReturnType<typeof createToolCallAccumulator>['push']>[0]

/** streamStep's reading: text and call deltas are kept, an error or the end stops reading. */
async function consume(events: Events, on: { text: (delta: string) => void, call: (event: CallEvent) => void }) {
  for await (const event of events) {
    if (event.type === 'text-delta') on.text(event.text)
    else if (event.type === 'tool-call-delta') on.call(event)
    else if (event.type === 'error' || event.type === 'done') break
  }
}
