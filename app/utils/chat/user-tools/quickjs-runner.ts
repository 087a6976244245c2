/**
 * Runs the handler of a tool written in the app inside QuickJS (compiled to WebAssembly): a JavaScript engine of
 * its own, with its own heap and globals. Nothing of the host is given to it but a `console` that records lines;
 * the arguments go in as JSON text and the result comes out as JSON text. No fetch, no DOM, no timers, no
 * modules: the engine has none of them unless the host adds them, and this host adds none.
 *
 * Pure: the caller hands in the loaded QuickJS module, so Node tests run the same code the worker runs.
 */
import { parseJson } from '#shared/security/parse-json'
import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten-core'
import { createLogBuffer, installConsole } from './quickjs-console'
import type { LogBuffer } from './quickjs-console'
import { isModuleRetired, timeoutError, withSandbox } from './quickjs-sandbox'
import type { RunError, Sandbox } from './quickjs-sandbox'
import { USER_TOOL_MAX_RESULT_CHARS, USER_TOOL_MEMORY_BYTES } from './user-tool-limits'

export interface QuickJSRunRequest {
  /** The handler: the body of `async function (args) { ... }`. */
  code: string
  /** The arguments (plain JSON). */
  args: unknown
  /** The handler is interrupted when it runs longer than this. */
  timeoutMs: number
  /**
   * When the call started (`Date.now()` on the page, the same clock as the worker's): the limit counts from there,
   * so a worker that was slow to start does not add its start-up to the handler's time. @default now
   */
  startedAt?: number
  /** @default USER_TOOL_MEMORY_BYTES */
  memoryBytes?: number
}

/** What a handler did: its value (a string, or the parsed JSON it returned) or its error, and what it logged. */
export type QuickJSRunOutcome =
  | { ok: true, value: unknown, logs: string[], droppedLogs: number }
  | { ok: false, error: { name: string, message: string }, logs: string[], droppedLogs: number }

// Runs inside QuickJS. The handler is built with the AsyncFunction constructor, so its source is parsed as a
// function body (a stray `})` is a syntax error, not an escape) and may use `await`. The value is turned into
// JSON inside the sandbox, within the time limit: a hostile toJSON loops there, not here.
const DRIVER = `"use strict";
(function (source, argsJson) {
  const AsyncFunction = (async function () {}).constructor
  const handler = new AsyncFunction('args', source)
  const running = handler(JSON.parse(argsJson))
  // A source that closes the function early ("}) ... (function () {") yields some other function.
  if (!running || typeof running.then !== 'function') throw new SyntaxError('the handler must be a function body')
  return running.then(function (value) {
    if (value === undefined) throw new TypeError('the handler returned nothing: end it with "return <value>"')
    if (typeof value === 'string') return ['text', value]
    const json = JSON.stringify(value)
    if (typeof json !== 'string') throw new TypeError('the handler returned a ' + typeof value + ', which is not JSON')
    return ['json', json]
  })
})`

// Checks the handler's syntax without running it.
const SYNTAX_CHECK = `"use strict";
(function (source) { new ((async function () {}).constructor)('args', source) })`

/** Runs one call in a fresh QuickJS runtime (its own heap, limits and globals), then frees it. Never throws. */
export function runInQuickJS(module: QuickJSWASMModule, request: QuickJSRunRequest): QuickJSRunOutcome {
  const logs = createLogBuffer()
  const memoryBytes = request.memoryBytes ?? USER_TOOL_MEMORY_BYTES
  const failure = (error: RunError): QuickJSRunOutcome => ({ ok: false, error, logs: logs.lines, droppedLogs: logs.dropped })
  let argsJson: string
  try {
    argsJson = JSON.stringify(request.args ?? {})
  }
  catch (error) {
    return failure({ name: 'TypeError', message: `the arguments are not JSON: ${(error as Error).message}` })
  }

  const deadline = (request.startedAt ?? Date.now()) + request.timeoutMs
  return withSandbox(module, { memoryBytes, deadline }, (sandbox) => {
    const { vm, runtime } = sandbox
    installConsole(vm, logs)
    const fail = (handle: QuickJSHandle) => failure(sandbox.readError(handle, request.timeoutMs, memoryBytes))
    const driver = vm.evalCode(DRIVER, 'plugboard-driver.js')
    if (driver.error) return fail(driver.error)
    const source = vm.newString(request.code)
    const args = vm.newString(argsJson)
    const call = vm.callFunction(driver.value, vm.undefined, source, args)
    for (const handle of [driver.value, source, args]) handle.dispose()
    if (call.error) return fail(call.error)

    const promise = call.value
    try {
      // No timers and no I/O in here: every job the handler can wait for is already queued.
      const interruptsBefore = sandbox.interrupts
      const ending = runJobs(sandbox, promise)
      const interruptedInJobs = sandbox.interrupts > interruptsBefore
      if (interruptedInJobs || runtime.hasPendingJob()) sandbox.abandon()
      // An async function turns an interrupt into a rejected promise, which the handler may catch or never look at:
      // once the clock has stopped the handler, the call ran out of time whatever its promise says.
      if (sandbox.interrupts > 0 || ending === 'out-of-time') return failure(timeoutError(request.timeoutMs))
      if (typeof ending === 'object') return fail(ending.error)
      const state = vm.getPromiseState(promise)
      if (state.type === 'pending') {
        return failure({ name: 'Error', message: 'the handler waited for something that never came (the sandbox has no timers and no network)' })
      }
      if (state.type === 'rejected') return fail(state.error)
      sandbox.allowReading()
      const pair: unknown = state.value.consume(handle => vm.dump(handle))
      return readValue(pair, failure, logs)
    }
    finally {
      promise.dispose()
    }
  }, failure)
}

/**
 * Jobs run per batch: between two batches the host looks at the promise and the clock, so a handler that queues
 * microtasks forever is stopped at its deadline (QuickJS's interrupt handler is consulted only every 10,000 calls).
 */
const JOBS_PER_BATCH = 1_000

/** Runs queued jobs until `promise` settles, the queue is empty, the deadline passes or a job fails outside it. */
function runJobs(sandbox: Sandbox, promise: QuickJSHandle): 'settled' | 'idle' | 'out-of-time' | { error: QuickJSHandle } {
  const { vm, runtime } = sandbox
  for (;;) {
    const jobs = runtime.executePendingJobs(JOBS_PER_BATCH)
    if (jobs.error) return { error: jobs.error }
    if (isSettled(vm, promise)) return 'settled'
    if (!runtime.hasPendingJob()) return 'idle'
    if (sandbox.pastDeadline()) return 'out-of-time'
  }
}

function isSettled(vm: QuickJSContext, promise: QuickJSHandle): boolean {
  const state = vm.getPromiseState(promise)
  if (state.type === 'fulfilled') state.value.dispose()
  else if (state.type === 'rejected') state.error.dispose()
  return state.type !== 'pending'
}

/** Null when `code` parses as the body of an async function, else the SyntaxError's message. */
export function checkHandlerSyntax(module: QuickJSWASMModule, code: string): string | null {
  const asText = (error: RunError) => `${error.name}: ${error.message}`
  return withSandbox(module, { memoryBytes: USER_TOOL_MEMORY_BYTES, deadline: Date.now() + 1_000 }, (sandbox) => {
    const { vm } = sandbox
    const checker = vm.unwrapResult(vm.evalCode(SYNTAX_CHECK, 'plugboard-check.js'))
    const source = vm.newString(code)
    const result = vm.callFunction(checker, vm.undefined, source)
    checker.dispose()
    source.dispose()
    if (!result.error) {
      result.value.dispose()
      return null
    }
    return asText(sandbox.readError(result.error, 1_000, USER_TOOL_MEMORY_BYTES))
  }, asText)
}

export interface QuickJSRunner {
  run: (request: QuickJSRunRequest) => Promise<QuickJSRunOutcome>
  checkSyntax: (code: string) => Promise<string | null>
}

/**
 * Runs calls on one loaded QuickJS module, and loads a fresh one once it is retired (an engine fault, a call cut off
 * inside it): a crashed module is never used again. `load` is
 * `newQuickJSWASMModuleFromVariant(variant)`: in the worker with the wasm file the app serves, in Node from disk.
 */
export function createQuickJSRunner(load: () => Promise<QuickJSWASMModule>): QuickJSRunner {
  let module: Promise<QuickJSWASMModule> | undefined
  const current = async (): Promise<QuickJSWASMModule> => {
    if (module) {
      try {
        const loaded = await module
        if (!isModuleRetired(loaded)) return loaded
      }
      catch {
        // the last load failed: try again
      }
    }
    module = load()
    return module
  }
  return {
    run: async request => runInQuickJS(await current(), request),
    checkSyntax: async code => checkHandlerSyntax(await current(), code),
  }
}

function readValue(pair: unknown, failure: (error: RunError) => QuickJSRunOutcome,
  logs: LogBuffer): QuickJSRunOutcome {
  if (!Array.isArray(pair) || typeof pair[1] !== 'string') {
    return failure({ name: 'TypeError', message: 'the handler\'s value could not be read (did it replace JSON or Promise?)' })
  }
  const [kind, text] = pair as [string, string]
  if (text.length > USER_TOOL_MAX_RESULT_CHARS) {
    return failure({ name: 'RangeError', message: `the handler returned ${text.length} characters; at most ${USER_TOOL_MAX_RESULT_CHARS} are accepted` })
  }
  if (kind === 'text') return { ok: true, value: text, logs: logs.lines, droppedLogs: logs.dropped }
  try {
    return { ok: true, value: parseJson(text), logs: logs.lines, droppedLogs: logs.dropped }
  }
  catch {
    return failure({ name: 'TypeError', message: 'the handler returned a value that is not JSON' })
  }
}
