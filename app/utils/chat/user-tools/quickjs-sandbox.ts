/**
 * One call's QuickJS runtime and context, with the call's limits, and what happens to them afterwards: freed, or,
 * when the call was cut off in a state QuickJS cannot free safely, abandoned together with the module that holds them.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core'
import { stringify } from './quickjs-console'
import { USER_TOOL_STACK_BYTES } from './user-tool-limits'

export interface RunError {
  name: string
  message: string
}

export interface Sandbox {
  vm: QuickJSContext
  runtime: QuickJSRuntime
  /** True once the call's deadline has passed (the interrupt handler says so to QuickJS from then on). */
  pastDeadline: () => boolean
  /** How many times the interrupt handler has stopped the code so far. */
  readonly interrupts: number
  /** Gives a short new deadline for reading what the handler left (its value or error may have getters). */
  allowReading: () => void
  /** Reads (and frees) an error handle as a message a user can act on. */
  readError: (handle: QuickJSHandle, timeoutMs: number, memoryBytes: number) => RunError
  /**
   * The call was cut off with work still inside the engine (queued jobs, a job stopped half-way): freeing the runtime
   * then trips QuickJS's assertion that it holds no objects, which aborts the whole module. The runtime is left as
   * it is and the module is retired instead.
   */
  abandon: () => void
}

/** Time to read a result or an error once the handler is done; a getter that loops is stopped by it. */
const READ_DEADLINE_MS = 200

/** Runs `body` in a fresh runtime with these limits. Never throws: a fault of the engine goes to `onHostError`. */
export function withSandbox<T>(
  module: QuickJSWASMModule,
  limits: { memoryBytes: number, deadline: number },
  body: (sandbox: Sandbox) => T,
  onHostError: (error: RunError) => T,
): T {
  if (retiredModules.has(module)) {
    return onHostError({ name: 'SandboxError', message: 'the sandbox stopped: its engine was retired after an earlier call and is not used again' })
  }
  let runtime: QuickJSRuntime | undefined
  let vm: QuickJSContext | undefined
  let abandoned = false
  try {
    runtime = module.newRuntime()
    runtime.setMemoryLimit(limits.memoryBytes)
    runtime.setMaxStackSize(USER_TOOL_STACK_BYTES)
    let deadline = limits.deadline
    let interrupts = 0
    runtime.setInterruptHandler(() => {
      if (Date.now() <= deadline) return false
      interrupts++
      return true
    })
    vm = runtime.newContext()
    const context = vm
    const allowReading = () => {
      deadline = Date.now() + READ_DEADLINE_MS
    }
    return body({
      vm: context,
      runtime,
      pastDeadline: () => Date.now() > deadline,
      get interrupts() { return interrupts },
      allowReading,
      readError(handle, timeoutMs, memoryBytes) {
        allowReading()
        try {
          return describeError(context.dump(handle), timeoutMs, memoryBytes)
        }
        catch {
          return { name: 'Error', message: 'the handler threw something that could not be read' }
        }
        finally {
          if (handle.alive) handle.dispose()
        }
      },
      abandon() {
        abandoned = true
      },
    })
  }
  catch (error) {
    // A fault of the engine itself, not the handler's (the host's stack ran out inside WebAssembly, an abort):
    // the module's state is unknown from here on, so it is not used again.
    retiredModules.add(module)
    return onHostError({ name: 'SandboxError', message: `the sandbox stopped: ${(error as Error)?.message ?? String(error)}` })
  }
  finally {
    if (abandoned) {
      retiredModules.add(module)
    }
    else {
      try {
        vm?.dispose()
        runtime?.dispose()
      }
      catch {
        // QuickJS asserts that a freed runtime holds no objects, and aborts the module when one is left.
        retiredModules.add(module)
      }
    }
  }
}

const retiredModules = new WeakSet<QuickJSWASMModule>()

/** True once `module` may not be used again (an engine fault, or a call cut off inside it): load a new one. */
export function isModuleRetired(module: QuickJSWASMModule): boolean {
  return retiredModules.has(module)
}

/** The error a handler threw, in words a user can act on. The engine's own limits get their own names. */
export function describeError(dumped: unknown, timeoutMs: number, memoryBytes: number): RunError {
  const error = (dumped && typeof dumped === 'object' ? dumped : {}) as { name?: unknown, message?: unknown }
  const name = typeof error.name === 'string' ? error.name : 'Error'
  const message = typeof error.message === 'string' ? error.message : stringify(dumped)
  if (name === 'InternalError' && message === 'interrupted') return timeoutError(timeoutMs)
  if (/out of memory/i.test(message)) {
    return { name: 'MemoryLimitError', message: `ran out of memory (the sandbox allows ${Math.round(memoryBytes / 1024 / 1024)} MB)` }
  }
  return { name, message: message.slice(0, 2_000) }
}

export function timeoutError(timeoutMs: number): RunError {
  return { name: 'TimeoutError', message: `ran past its time limit of ${timeoutMs} ms and was stopped` }
}
