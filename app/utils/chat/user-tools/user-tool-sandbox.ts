/**
 * The page's side of a tool written in the app: its calls run through the plugin sandbox's worker client (a worker
 * per call, terminated on Stop, and by the page itself just after the tool's time limit whatever QuickJS is doing),
 * with workers that run QuickJS instead of loading a plugin file. The editor's test run and syntax check use a
 * throwaway worker of the same kind, under the same kill.
 */
import type { SandboxRunRequest } from '../sandbox/sandbox-messages'
import { createWorkerToolSandbox } from '../sandbox/worker-tool-sandbox'
import type { SandboxWorker, WorkerToolSandbox } from '../sandbox/worker-tool-sandbox'
import { spawnUserToolWorker } from './spawn-user-tool-worker'
import { USER_TOOL_DEFAULT_TIMEOUT_MS, USER_TOOL_KILL_MARGIN_MS } from './user-tool-limits'
import type { UserToolWorkerRequest, UserToolWorkerResponse } from './user-tool-messages'

/** The part of `Worker` used here, so tests can hand in a stand-in. */
export type UserToolWorker = Omit<SandboxWorker, 'postMessage'> & { postMessage: (message: UserToolWorkerRequest) => void }

export interface UserToolSource {
  name: string
  code: string
  /** @default USER_TOOL_DEFAULT_TIMEOUT_MS */
  timeoutMs?: number
}

export interface UserToolSandboxOptions {
  /** @default spawnUserToolWorker */
  spawn?: () => UserToolWorker
}

/** A handler for the registry (flagged as sandboxed) that runs `source` in QuickJS workers. */
export function createUserToolSandbox(source: UserToolSource, options: UserToolSandboxOptions = {}): WorkerToolSandbox {
  const { spawn = spawnUserToolWorker } = options
  const timeoutMs = source.timeoutMs ?? USER_TOOL_DEFAULT_TIMEOUT_MS
  return createWorkerToolSandbox({
    file: `user tool ${source.name}`,
    toolName: source.name,
    spawn: () => bindToSource(spawn(), source.code, timeoutMs),
    // A fresh worker per call: nothing a call leaves (even in the engine) reaches the next, and a user with many
    // tools does not keep a warm worker, with its WebAssembly memory, for each of them.
    maxIdleWorkers: 0,
    // QuickJS interrupts at the limit where it can; the page does not rely on it.
    killAfter: { ms: timeoutMs + USER_TOOL_KILL_MARGIN_MS, error: () => Object.assign(new Error(killedMessage(timeoutMs)), { name: 'TimeoutError' }) },
  })
}

function killedMessage(timeoutMs: number): string {
  return `ran past its time limit of ${timeoutMs} ms and was stopped (its worker was terminated)`
}

/** The pool speaks the plugin sandbox's request; this worker is sent the tool's source with the arguments instead. */
function bindToSource(worker: UserToolWorker, code: string, timeoutMs: number): SandboxWorker {
  return {
    get onmessage() { return worker.onmessage },
    set onmessage(listener) { worker.onmessage = listener },
    get onerror() { return worker.onerror },
    set onerror(listener) { worker.onerror = listener },
    get onmessageerror() { return worker.onmessageerror },
    set onmessageerror(listener) { worker.onmessageerror = listener },
    postMessage: (request: SandboxRunRequest) => worker.postMessage({ type: 'run', code, args: request.args, timeoutMs, startedAt: Date.now() }),
    terminate: () => worker.terminate(),
  }
}

/** What a test run shows: the value or the error, and the console output. */
export type UserToolTestOutcome =
  | { ok: true, value: unknown, logs: string[], droppedLogs: number }
  | { ok: false, name: string, message: string, logs: string[], droppedLogs: number }

export interface TestRunOptions extends UserToolSandboxOptions {
  /** @default USER_TOOL_DEFAULT_TIMEOUT_MS */
  timeoutMs?: number
  /** Cancels the run (the worker is terminated). */
  signal?: AbortSignal
}

/** Runs the handler once in a throwaway worker, as a call would, and reports what happened. Never rejects. */
export function testRunUserTool(code: string, args: unknown, options: TestRunOptions = {}): Promise<UserToolTestOutcome> {
  const timeoutMs = options.timeoutMs ?? USER_TOOL_DEFAULT_TIMEOUT_MS
  const killed = { afterMs: timeoutMs + USER_TOOL_KILL_MARGIN_MS, name: 'TimeoutError', message: killedMessage(timeoutMs) }
  return askOnce(options, { type: 'run', code, args, timeoutMs, startedAt: Date.now() }, killed, (response) => {
    if (response.type === 'result') return { ok: true, value: response.value, logs: response.logs, droppedLogs: response.droppedLogs }
    if (response.type === 'error') return { ok: false, name: response.name, message: response.message, logs: response.logs, droppedLogs: response.droppedLogs }
    return undefined
  }, (message, name = 'SandboxError') => ({ ok: false, name, message, logs: [], droppedLogs: 0 }))
}

/** Null when the handler parses, else the SyntaxError ("SyntaxError: unexpected token in expression: ')'"). */
export function checkUserToolSyntax(code: string, options: UserToolSandboxOptions & { signal?: AbortSignal } = {}): Promise<string | null> {
  return askOnce(options, { type: 'check', code }, { afterMs: 5_000, name: 'TimeoutError', message: 'took more than 5 s; its worker was terminated' },
    response => (response.type === 'checked' ? response.problem : undefined),
    message => `The syntax could not be checked: ${message}`)
}

/** When the page gives up on a worker, and what it says then. */
interface KillAfter {
  afterMs: number
  name: string
  message: string
}

function askOnce<T>(options: TestRunOptions, request: UserToolWorkerRequest, killAfter: KillAfter,
  read: (response: UserToolWorkerResponse) => T | undefined, onFailure: (message: string, name?: string) => T): Promise<T> {
  return new Promise<T>((resolve) => {
    let worker: UserToolWorker
    try {
      worker = (options.spawn ?? spawnUserToolWorker)()
    }
    catch (error) {
      resolve(onFailure(`the worker could not start: ${(error as Error)?.message ?? error}`))
      return
    }
    const finish = (value: T) => {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      worker.onmessage = worker.onerror = worker.onmessageerror = null
      worker.terminate()
      resolve(value)
    }
    // For what QuickJS's interrupt does not stop: the whole worker goes.
    const timer = setTimeout(() => finish(onFailure(killAfter.message, killAfter.name)), killAfter.afterMs)
    const onAbort = () => finish(onFailure('was cancelled'))
    if (options.signal?.aborted) return finish(onFailure('was cancelled'))
    options.signal?.addEventListener('abort', onAbort, { once: true })
    worker.onmessage = (event) => {
      const value = read(event.data as UserToolWorkerResponse)
      if (value !== undefined) finish(value)
    }
    worker.onerror = event => finish(onFailure(event.message
      ? `the worker stopped: ${event.message}`
      : 'the worker failed to load (the browser console says why)'))
    worker.onmessageerror = () => finish(onFailure('the worker sent an answer the page could not read'))
    worker.postMessage(request)
  })
}
