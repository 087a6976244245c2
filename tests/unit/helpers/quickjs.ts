import { Worker } from 'node:worker_threads'
import { newQuickJSWASMModuleFromVariant } from 'quickjs-emscripten-core'
import releaseSync from '@jitl/quickjs-wasmfile-release-sync'
import { createQuickJSRunner } from '~/utils/chat/user-tools/quickjs-runner'
import type { UserToolWorker } from '~/utils/chat/user-tools/user-tool-sandbox'
import type { UserToolWorkerRequest, UserToolWorkerResponse } from '~/utils/chat/user-tools/user-tool-messages'
import { answerUserToolRequest } from '~/utils/chat/user-tools/user-tool-worker-handler'

/** The variant the app's worker loads, read from disk by Node (the worker is given the wasm file's URL instead). */
export function loadQuickJS() {
  return newQuickJSWASMModuleFromVariant(releaseSync)
}

/**
 * A stand-in for the user tool worker (Node has no Worker) that answers as the worker does, with the real QuickJS: what crosses is a
 * structured clone, and after `terminate()` it says nothing, as a killed worker does.
 */
export class QuickJSStandInWorker implements UserToolWorker {
  onmessage: UserToolWorker['onmessage'] = null
  onerror: UserToolWorker['onerror'] = null
  onmessageerror: UserToolWorker['onmessageerror'] = null
  terminated = false
  readonly requests: UserToolWorkerRequest[] = []
  private readonly runner = createQuickJSRunner(loadQuickJS)
  private readonly loaded = this.runner.checkSyntax('')

  postMessage(message: UserToolWorkerRequest) {
    const request = structuredClone(message)
    this.requests.push(request)
    void this.answer(request)
  }

  terminate() {
    this.terminated = true
  }

  private async answer(request: UserToolWorkerRequest) {
    // A real worker is killed mid-run; this one runs on the test's thread, so it must not start once terminated.
    await this.loaded
    if (this.terminated) return
    this.deliver(await answerUserToolRequest(this.runner, request, message => this.deliver(message)))
  }

  private deliver(message: UserToolWorkerResponse) {
    const data = structuredClone(message)
    queueMicrotask(() => {
      if (!this.terminated) this.onmessage?.({ data } as MessageEvent)
    })
  }
}

export function quickJSWorkerSpawner() {
  const workers: QuickJSStandInWorker[] = []
  return {
    workers,
    spawn: () => {
      const worker = new QuickJSStandInWorker()
      workers.push(worker)
      return worker
    },
  }
}

/**
 * A user tool worker on a real Node thread, running the app's runner (see user-tool-thread.worker.ts): unlike the
 * stand-in above it can be terminated in the middle of a run, as the page terminates a browser worker.
 */
export class ThreadUserToolWorker implements UserToolWorker {
  onmessage: UserToolWorker['onmessage'] = null
  onerror: UserToolWorker['onerror'] = null
  onmessageerror: UserToolWorker['onmessageerror'] = null
  terminatedAt: number | undefined
  private readonly thread = new Worker(new URL('./user-tool-thread.mjs', import.meta.url))
  /** Resolves when the thread has stopped (terminated, or crashed). */
  readonly exited = new Promise<void>(resolve => this.thread.once('exit', () => resolve()))
  /** Resolves once QuickJS is loaded in the thread. */
  readonly ready = new Promise<void>(resolve => this.thread.once('message', () => resolve()))

  constructor() {
    this.thread.on('message', (data) => {
      if (data !== 'ready') this.onmessage?.({ data } as MessageEvent)
    })
    this.thread.on('error', error => this.onerror?.({ message: error.message } as ErrorEvent))
  }

  postMessage(message: UserToolWorkerRequest) {
    this.thread.postMessage(message)
  }

  terminate() {
    this.terminatedAt ??= Date.now()
    void this.thread.terminate()
  }
}
