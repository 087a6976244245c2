import { newQuickJSWASMModuleFromVariant } from 'quickjs-emscripten-core'
import releaseSync from '@jitl/quickjs-wasmfile-release-sync'
import { createQuickJSRunner } from '~/utils/chat/user-tools/quickjs-runner'
import type { UserToolWorker } from '~/utils/chat/user-tools/user-tool-sandbox'
import type { UserToolWorkerRequest, UserToolWorkerResponse } from '~/utils/chat/user-tools/user-tool-messages'

/** The variant the app's worker loads, read from disk by Node (the worker is given the wasm file's URL instead). */
export function loadQuickJS() {
  return newQuickJSWASMModuleFromVariant(releaseSync)
}

/**
 * A stand-in for the user tool worker (Node has no Worker) that runs the real QuickJS runner: what crosses is a
 * structured clone, and after `terminate()` it says nothing, as a killed worker does.
 */
export class QuickJSStandInWorker implements UserToolWorker {
  onmessage: UserToolWorker['onmessage'] = null
  onerror: UserToolWorker['onerror'] = null
  onmessageerror: UserToolWorker['onmessageerror'] = null
  terminated = false
  readonly requests: UserToolWorkerRequest[] = []
  private readonly runner = createQuickJSRunner(loadQuickJS)

  postMessage(message: UserToolWorkerRequest) {
    const request = structuredClone(message)
    this.requests.push(request)
    void this.answer(request)
  }

  terminate() {
    this.terminated = true
  }

  private async answer(request: UserToolWorkerRequest) {
    if (request.type === 'check') return this.deliver({ type: 'checked', problem: await this.runner.checkSyntax(request.code) })
    const outcome = await this.runner.run(request)
    this.deliver(outcome.ok
      ? { type: 'result', value: outcome.value, logs: outcome.logs, droppedLogs: outcome.droppedLogs }
      : { type: 'error', ...outcome.error, logs: outcome.logs, droppedLogs: outcome.droppedLogs })
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
