import type { ToolExecutionContext, ToolHandler } from '#shared/tools/tool-types'
import { ToolSandboxError } from '../registry/errors/tool-sandbox-error'
import type { SandboxResponse, SandboxRunRequest } from './sandbox-messages'

/** The part of `Worker` the sandbox uses, so tests can hand it a stand-in. */
export interface SandboxWorker {
  onmessage: ((event: MessageEvent) => void) | null
  onerror: ((event: ErrorEvent) => void) | null
  onmessageerror: ((event: MessageEvent) => void) | null
  postMessage: (message: SandboxRunRequest) => void
  terminate: () => void
}

export interface WorkerToolSandboxOptions {
  /** The plugin's file name in `plugins/`, e.g. `calculate.ts`: the worker loads the handler from it. */
  file: string
  toolName: string
  /** Starts a new worker; the app passes `spawnToolWorker`. Called lazily, on the first call and after a kill. */
  spawn: () => SandboxWorker
  /** Idle workers kept warm between calls (a warm worker has the plugin and its libraries loaded). @default 1 */
  maxIdleWorkers?: number
  /**
   * The page terminates a call's worker this long after sending it the call, whatever the worker is doing, and the
   * call rejects with `error()`. For workers that run code with a time limit of its own (tools written in the app):
   * other calls end when the executor's timeout aborts their signal. @default none
   */
  killAfter?: { ms: number, error: () => Error }
}

export interface WorkerToolSandbox {
  /** Runs each call in a worker; register it in place of the plugin's own handler. */
  handler: ToolHandler
  /** Terminates every worker; calls in flight fail with a `ToolSandboxError`. */
  dispose: () => void
}

const sandboxedHandlers = new WeakSet<ToolHandler>()

/** True for a handler made by `createWorkerToolSandbox`, the only kind the registry accepts for `sandbox: 'worker'`. */
export function isSandboxedHandler(handler: unknown): boolean {
  return typeof handler === 'function' && sandboxedHandlers.has(handler as ToolHandler)
}

/**
 * A handler that runs a plugin's tool in Web Workers. Each call gets a worker of its own (a warm idle one, or
 * a new one), so killing one call never kills another. When the call's signal aborts (timeout or Stop) the
 * worker is terminated at once, even in the middle of a synchronous loop, and the call rejects with the
 * signal's reason; a worker that answered goes back to the idle pool.
 */
export function createWorkerToolSandbox(options: WorkerToolSandboxOptions): WorkerToolSandbox {
  const { file, toolName, spawn, maxIdleWorkers = 1, killAfter } = options
  const idle: SandboxWorker[] = []
  const inFlight = new Set<() => void>()
  let disposed = false

  function run(args: unknown, context: ToolExecutionContext): Promise<unknown> {
    if (context.signal.aborted) return Promise.reject(context.signal.reason)
    if (disposed) return Promise.reject(new ToolSandboxError({ toolName, problem: 'was shut down (the tool was unloaded)' }))
    let worker: SandboxWorker
    try {
      worker = idle.pop() ?? spawn()
    }
    catch (error) {
      return Promise.reject(new ToolSandboxError({ toolName, problem: `could not start: ${(error as Error)?.message ?? error}`, cause: error }))
    }

    return new Promise((resolve, reject) => {
      let killTimer: ReturnType<typeof setTimeout> | undefined
      const release = (keepWarm: boolean) => {
        clearTimeout(killTimer)
        worker.onmessage = worker.onerror = worker.onmessageerror = null
        context.signal.removeEventListener('abort', onAbort)
        inFlight.delete(shutDown)
        if (keepWarm && !disposed && idle.length < maxIdleWorkers) idle.push(worker)
        else worker.terminate()
      }
      const fail = (problem: string, cause?: unknown) => {
        release(false)
        reject(new ToolSandboxError({ toolName, problem, cause }))
      }
      const onAbort = () => {
        release(false)
        reject(context.signal.reason)
      }
      const shutDown = () => fail('was shut down (the tool was unloaded)')

      worker.onmessage = (event) => {
        const message = event.data as SandboxResponse
        if (message.type === 'status') {
          context.status(message.text)
        }
        else if (message.type === 'result') {
          release(true)
          resolve(message.value)
        }
        else if (message.type === 'error') {
          release(true)
          reject(Object.assign(new Error(message.message), { name: message.name }))
        }
      }
      // Not prevented: the browser also logs it, with the file and line the message lacks.
      worker.onerror = event => fail(event.message
        ? `stopped on an uncaught error: ${event.message}`
        : 'failed to load (the browser console says why: a missing file, a blocked script or a syntax error)', event)
      worker.onmessageerror = event => fail('sent an answer the page could not read', event)
      context.signal.addEventListener('abort', onAbort, { once: true })
      inFlight.add(shutDown)
      try {
        worker.postMessage({ type: 'run', file, toolName, args, threadId: context.threadId, callId: context.callId, settings: context.settings })
      }
      catch (error) {
        fail(`could not be sent the arguments: ${(error as Error)?.message ?? error}`, error)
        return
      }
      if (killAfter) {
        killTimer = setTimeout(() => {
          release(false)
          reject(killAfter.error())
        }, killAfter.ms)
      }
    })
  }

  const handler: ToolHandler = run
  sandboxedHandlers.add(handler)
  return {
    handler,
    dispose() {
      disposed = true
      for (const shutDown of [...inFlight]) shutDown()
      for (const worker of idle.splice(0)) worker.terminate()
    },
  }
}
