import type { ToolCall } from '../types/chat'
import type { StreamEvent } from '../stream/stream-event'
import { createCompleteJsonTracker, type CompleteJsonTracker } from './complete-json-tracker'

export type ToolCallDeltaEvent = Extract<StreamEvent, { type: 'tool-call-delta' }>

export interface ToolCallAccumulatorOptions {
  /**
   * Prefix of the ids made up for calls whose provider sent none; the call's index is appended.
   * @default `call_<random>`
   */
  idPrefix?: string
}

/** The first sighting of a call's name, so the UI can show a queued card while arguments still stream. */
export interface StreamingToolCall {
  index: number
  id: string
  name: string
}

export interface ToolCallAccumulator {
  /** Feeds one delta. Returns the call the first time its name is known, otherwise undefined. */
  push: (event: ToolCallDeltaEvent) => StreamingToolCall | undefined
  /** Every call seen so far, ordered by index (then by arrival), ids always set. */
  calls: () => ToolCall[]
}

interface PendingCall {
  index: number
  order: number
  id: string
  /** False while `id` is one we made up: a provider id arriving before the name is adopted. */
  providerId: boolean
  name: string
  announced: boolean
  fragments: string[]
  /**
   * The current text: whole-call repeats replace it instead of appending, so it is kept apart from the fragments.
   * Whether it is complete JSON is asked after many deltas, so the answer is kept up as the text grows.
   */
  json: CompleteJsonTracker
}

/**
 * Collects streamed tool-call fragments into whole calls, grouped by `index`.
 * Copes with what real providers send: ids missing (stable ids are made up), several calls per turn,
 * the whole call repeated in every chunk instead of fragments, and two calls reusing one index
 * (the second arrives with a new id after the first call's arguments were complete).
 * Nothing here depends on `finish_reason`, so no call is dropped when it is missing or unusual.
 */
export function createToolCallAccumulator(options: ToolCallAccumulatorOptions = {}): ToolCallAccumulator {
  const idPrefix = options.idPrefix ?? `call_${Math.random().toString(36).slice(2, 10)}`
  const pending: PendingCall[] = []
  const currentByIndex = new Map<number, PendingCall>()
  const callsPerIndex = new Map<number, number>()

  function startCall(index: number, id: string | undefined): PendingCall {
    const sameIndex = callsPerIndex.get(index) ?? 0
    callsPerIndex.set(index, sameIndex + 1)
    const call: PendingCall = {
      index,
      order: pending.length,
      id: id || (sameIndex === 0 ? `${idPrefix}_${index}` : `${idPrefix}_${index}_${sameIndex}`),
      providerId: Boolean(id),
      name: '',
      announced: false,
      fragments: [],
      json: createCompleteJsonTracker(),
    }
    pending.push(call)
    currentByIndex.set(index, call)
    return call
  }

  function isNextCall(call: PendingCall, event: ToolCallDeltaEvent): boolean {
    if (!event.id || !call.providerId || event.id === call.id) return false
    return call.json.isComplete() || Boolean(event.name && call.name && event.name !== call.name)
  }

  function push(event: ToolCallDeltaEvent): StreamingToolCall | undefined {
    let call = currentByIndex.get(event.index)
    if (!call || isNextCall(call, event)) call = startCall(event.index, event.id)
    else if (event.id && !call.providerId && !call.announced) {
      call.id = event.id
      call.providerId = true
    }
    if (event.name && !call.name) call.name = event.name
    appendArguments(call, event.argumentsDelta)
    if (call.name && !call.announced) {
      call.announced = true
      return { index: call.index, id: call.id, name: call.name }
    }
    return undefined
  }

  function calls(): ToolCall[] {
    return [...pending]
      .sort((a, b) => a.index - b.index || a.order - b.order)
      .map(call => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: finalArguments(call) } }))
  }

  return { push, calls }
}

function appendArguments(call: PendingCall, delta: string | undefined): void {
  if (!delta) return
  call.fragments.push(delta)
  // A provider that repeats the whole call sends the complete JSON again (or a longer version of it).
  const text = call.json.text()
  if (text && delta.startsWith(text) && call.json.isComplete()) call.json.reset(delta)
  else call.json.append(delta)
}

/**
 * Some providers send the arguments so far in every chunk (`{"ci`, `{"city":"Par`, ...). Appending them gives
 * broken JSON; if every fragment extends the previous one and the last is valid, the last is the call.
 */
function finalArguments(call: PendingCall): string {
  const { fragments } = call
  const text = call.json.text()
  if (fragments.length < 2 || call.json.isComplete()) return text
  const cumulative = fragments.every((fragment, i) => i === 0 || fragment.startsWith(fragments[i - 1]!))
  const last = fragments[fragments.length - 1]!
  return cumulative && isCompleteJson(last) ? last : text
}

function isCompleteJson(text: string): boolean {
  if (!text.trim()) return false
  try {
    JSON.parse(text)
    return true
  }
  catch {
    return false
  }
}
