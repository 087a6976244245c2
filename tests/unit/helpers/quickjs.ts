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
