import { describeValue } from '../errors/describe-value'
import type { ToolCall } from './tool-types'

/** A tool call's fields as strings the executor can rely on, plus the arguments exactly as they came. */
export interface ToolCallFields {
  id: string
  name: string
  /** `function.arguments` as received: a string from a well-behaved model, anything from a hostile one. */
  arguments: unknown
  /** The arguments as text for the result record: the string itself, or a JSON/String rendering of anything else. */
  argumentsText: string
}

/** Names and ids are identifiers: a rendering of a non-string one only needs to be recognisable. */
const MAX_RENDERED_FIELD_CHARS = 200

/**
 * Reads a call that came from a model or a text-call parser without trusting its types: the ToolCall type is
 * what we asked for, not what arrived. Never throws (a missing `function`, getters that throw, a Proxy).
 */
export function readToolCall(call: ToolCall): ToolCallFields {
  let id: unknown
  let name: unknown
  let args: unknown
  try {
    id = call.id
    name = call.function.name
    args = call.function.arguments
  }
  catch {
    // Whatever could be read is kept; a call without `function` is reported as a call to no tool.
  }
  return {
    id: asText(id, MAX_RENDERED_FIELD_CHARS),
    name: asText(name, MAX_RENDERED_FIELD_CHARS),
    arguments: args,
    argumentsText: asText(args, Number.POSITIVE_INFINITY),
  }
}

function asText(value: unknown, maxChars: number): string {
  if (typeof value === 'string') return value
  return value === undefined ? '' : describeValue(value, maxChars)
}
