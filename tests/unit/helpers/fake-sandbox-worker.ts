import type { SandboxResponse, SandboxRunRequest } from '~/utils/chat/sandbox/sandbox-messages'
import type { SandboxWorker } from '~/utils/chat/sandbox/worker-tool-sandbox'

/** What a stand-in worker does with a request: answer through `reply` (now or later), or never. */
export type FakeWorkerBehaviour = (request: SandboxRunRequest, reply: (message: SandboxResponse) => void) => void

/**
 * A stand-in for a module Web Worker (node has none): what crosses is a structured clone, answers arrive on
 * a later microtask, and after `terminate()` it runs nothing and says nothing, as a killed worker does.
 */
export class FakeSandboxWorker implements SandboxWorker {
  onmessage: SandboxWorker['onmessage'] = null
  onerror: SandboxWorker['onerror'] = null
  onmessageerror: SandboxWorker['onmessageerror'] = null
  terminated = false
  readonly requests: SandboxRunRequest[] = []

  constructor(private readonly behaviour: FakeWorkerBehaviour) {}

  postMessage(message: SandboxRunRequest) {
    const request = structuredClone(message)
    this.requests.push(request)
    queueMicrotask(() => {
      if (!this.terminated) this.behaviour(request, reply => this.deliver(reply))
    })
  }

  /** The worker's global scope threw, or its script failed to load (then there is no message). */
  crash(message?: string) {
    queueMicrotask(() => this.onerror?.({ message } as ErrorEvent))
  }

  terminate() {
    this.terminated = true
  }

  private deliver(message: SandboxResponse) {
    const data = structuredClone(message)
    queueMicrotask(() => {
      if (!this.terminated) this.onmessage?.({ data } as MessageEvent)
    })
  }
}

/** A spawn function that records every worker it starts. */
export function fakeWorkerSpawner(behaviour: FakeWorkerBehaviour) {
  const workers: FakeSandboxWorker[] = []
  const spawn = () => {
    const worker = new FakeSandboxWorker(behaviour)
    workers.push(worker)
    return worker
  }
  return { spawn, workers }
}
