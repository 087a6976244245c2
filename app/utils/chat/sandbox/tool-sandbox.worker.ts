/**
 * Entry of a tool sandbox worker (a dedicated module Web Worker, one call at a time). It sees the arguments
 * and ids it is sent, nothing of the page: no DOM, no localStorage, no registry.
 */
import { runSandboxedCall } from './run-sandboxed-call'
import type { SandboxResponse, SandboxRunRequest } from './sandbox-messages'

// The same files app/plugins/tool-plugins.client.ts registers; from here the root plugins/ folder is four up.
// Lazy: a warm worker loads only the plugins it was asked to run, once.
const modules = import.meta.glob('../../../../plugins/*.ts')

// The app's TypeScript lib is DOM, not WebWorker: name only the two members used.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<SandboxRunRequest>) => void) | null
  postMessage: (message: SandboxResponse) => void
}

scope.onmessage = (event) => {
  void runSandboxedCall(event.data, modules, message => scope.postMessage(message))
}
