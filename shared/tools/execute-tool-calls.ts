import type { ToolCall } from '../types/chat'
import { InvalidToolInputError } from '../errors/invalid-tool-input-error'
import { InvalidToolOutputError } from '../errors/invalid-tool-output-error'
import { NoSuchToolError } from '../errors/no-such-tool-error'
import { ToolExecutionError } from '../errors/tool-execution-error'
import { ToolTimeoutError } from '../errors/tool-timeout-error'
import { ToolCancelledError } from '../errors/tool-cancelled-error'
import type { ToolErrorKind, ToolResult, ToolSet } from './tool-types'
import { serialiseToolOutput, truncateToolOutput } from './tool-output'
import { parseToolArguments, validateToolArguments } from './validate-tool-arguments'
import { readToolCall } from './read-tool-call'
import type { ToolCallFields } from './read-tool-call'
import { resolveTimeoutMs } from './tool-timeout'
import { onAbort } from '../stream/on-abort'
import { lazyToolFetch } from './lazy-tool-fetch'
import { TOOL_MESSAGES } from '../errors/tool-messages'

export interface ExecuteToolCallsOptions {
  threadId: string
  /** Aborting (the user pressed Stop) aborts every handler; unfinished calls end as 'cancelled'. */
  signal?: AbortSignal
  /**
   * Handler timeout for tools without their own `timeoutMs`. Values setTimeout cannot honour are replaced: see
   * resolveTimeoutMs. @default 10_000
   */
  defaultTimeoutMs?: number
  /** Results longer than this (characters) are cut for the model with a note. @default 32_768 */
  maxResultChars?: number
  /** A handler is about to run; awaited, so a listener that presses Stop here still cancels the call. */
  onStart?: (call: ToolCall) => void | Promise<void>
  /** A handler reported progress with `context.status(text)`. */
  onStatus?: (callId: string, text: string) => void
  /** One result as soon as it is known (not necessarily in the model's order). */
  onResult?: (result: ToolResult) => void | Promise<void>
}

export const CANCELLED_CONTENT: string = TOOL_MESSAGES['tool.cancelled']

type Outcome = { kind: 'done', text: string } | { kind: 'cancelled' } | { kind: 'error', errorKind: ToolErrorKind, error: Error }

/**
 * Runs the tool calls of one assistant turn concurrently and returns their results in the model's order.
 * Never throws for a tool's fault: unknown tools, bad arguments, throws, timeouts and unusable return values all
 * become results with status 'error' and a short summary the model can act on.
 */
export async function executeToolCalls(calls: ToolCall[], tools: ToolSet, options: ExecuteToolCallsOptions): Promise<ToolResult[]> {
  const defaultTimeoutMs = resolveTimeoutMs(options.defaultTimeoutMs, DEFAULT_TIMEOUT_MS)
  const maxResultChars = typeof options.maxResultChars === 'number' && options.maxResultChars >= 0 ? options.maxResultChars : DEFAULT_MAX_RESULT_CHARS
  const callbackErrors: unknown[] = []

  async function executeOne(call: ToolCall): Promise<ToolResult> {
    const startedAt = Date.now()
    const fields = readToolCall(call)
    let outcome: Outcome
    try {
      outcome = await runCall(call, fields, tools, { ...options, defaultTimeoutMs })
    }
    catch (error) {
      // A fault outside the handler (a tool set whose lookup throws...) is still this call's failure, not the turn's.
      outcome = { kind: 'error', errorKind: 'execution', error: new ToolExecutionError({ toolName: fields.name, cause: error }) }
    }
    const result = toResult(fields, outcome, startedAt, maxResultChars)
    if (outcome.kind === 'error') console.warn(`[tools] ${outcome.error.message}`)
    try {
      await options.onResult?.(result)
    }
    catch (error) {
      callbackErrors.push(error)
    }
    return result
  }

  const results = await Promise.all(calls.map(executeOne))
  // A failing store callback is a failure of the loop, not of a tool: surface it once every call has settled.
  if (callbackErrors.length > 0) throw callbackErrors[0]
  return results
}

const DEFAULT_TIMEOUT_MS = 10_000
const DEFAULT_MAX_RESULT_CHARS = 32_768

async function runCall(call: ToolCall, fields: ToolCallFields, tools: ToolSet,
  options: ExecuteToolCallsOptions & { defaultTimeoutMs: number }): Promise<Outcome> {
  const { name } = fields
  if (options.signal?.aborted) return { kind: 'cancelled' }
  const tool = tools.get(name)
  if (!tool) {
    const availableTools = tools.definitions.map(definition => definition.function.name)
    return { kind: 'error', errorKind: 'no-such-tool', error: new NoSuchToolError({ toolName: name, availableTools }) }
  }
  const parsed = parseToolArguments(fields.arguments)
  if (!parsed.ok) {
    return { kind: 'error', errorKind: 'invalid-input', error: new InvalidToolInputError({ toolName: name, issues: [{ path: '', message: parsed.error }] }) }
  }
  const validation = validateToolArguments(name, tool.definition.function.parameters, parsed.value, { textLength: fields.argumentsText.length })
  if (!validation.valid) return { kind: 'error', errorKind: 'invalid-input', error: validation.error }

  const timeoutMs = resolveTimeoutMs(tool.timeoutMs, options.defaultTimeoutMs)
  if (tool.timeoutMs !== undefined && timeoutMs !== tool.timeoutMs) {
    console.warn(`[tools] "${name}" has timeoutMs ${String(tool.timeoutMs)}, which a timer cannot honour; using ${timeoutMs} ms`)
  }
  const controller = new AbortController()
  const timeoutError = new ToolTimeoutError({ toolName: name, timeoutMs })
  const timer = setTimeout(() => controller.abort(timeoutError), timeoutMs)
  // Through onAbort: a step's parallel calls share the run's signal, and one listener each would flood warnings.
  const { signal } = options
  const stopListening = signal ? onAbort(signal, () => controller.abort(signal.reason)) : undefined
  let running = true
  // A handler may ignore its signal and never settle: racing with the signal makes the timeout and Stop win anyway.
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true })
  })
  aborted.catch(() => {})
  try {
    // After the abort listener is in place: a Stop pressed from inside onStart must still cancel this call.
    await options.onStart?.(call)
    if (options.signal?.aborted) return { kind: 'cancelled' }
    const context = {
      signal: controller.signal,
      threadId: options.threadId,
      callId: fields.id,
      status: (text: string) => {
        if (running) options.onStatus?.(fields.id, String(text))
      },
      settings: tool.settings ?? {},
      fetch: lazyToolFetch(controller.signal),
    }
    const value = await Promise.race([Promise.resolve().then(() => tool.handler(parsed.value, context)), aborted])
    const output = serialiseToolOutput(value)
    if (!output.ok) return { kind: 'error', errorKind: 'invalid-output', error: new InvalidToolOutputError({ toolName: name, reason: output.reason }) }
    return { kind: 'done', text: output.text }
  }
  catch (error) {
    if (options.signal?.aborted || ToolCancelledError.isInstance(error)) return { kind: 'cancelled' }
    if (controller.signal.reason === timeoutError) return { kind: 'error', errorKind: 'timeout', error: timeoutError }
    return { kind: 'error', errorKind: 'execution', error: new ToolExecutionError({ toolName: name, cause: error }) }
  }
  finally {
    running = false
    clearTimeout(timer)
    stopListening?.()
  }
}

function toResult(fields: ToolCallFields, outcome: Outcome, startedAt: number, maxResultChars: number): ToolResult {
  const base = { callId: fields.id, name: fields.name, arguments: fields.argumentsText, startedAt, finishedAt: Date.now() }
  if (outcome.kind === 'done') {
    const { content, truncated } = truncateToolOutput(outcome.text, maxResultChars, fields.id)
    return { ...base, status: 'done', content, fullContent: outcome.text, truncated }
  }
  if (outcome.kind === 'cancelled') {
    return { ...base, status: 'cancelled', content: CANCELLED_CONTENT, fullContent: CANCELLED_CONTENT, truncated: false, error: { kind: 'cancelled', message: CANCELLED_CONTENT } }
  }
  const message = `Error: ${outcome.error.message}`
  return { ...base, status: 'error', content: message, fullContent: message, truncated: false, error: { kind: outcome.errorKind, message: outcome.error.message } }
}

/**
 * A 'cancelled' result for a call that never ran (Stop pressed while it streamed, or the stream failed).
 * @param content @default 'Cancelled by the user.'
 */
export function cancelledToolResult(call: ToolCall, at = Date.now(), content = CANCELLED_CONTENT): ToolResult {
  return {
    callId: call.id, name: call.function.name, arguments: call.function.arguments, status: 'cancelled',
    content, fullContent: content, truncated: false, error: { kind: 'cancelled', message: content }, startedAt: at, finishedAt: at,
  }
}
