/**
 * Entry of a user tool's worker: a dedicated module Web Worker that runs handlers in QuickJS. The wasm file is one
 * of the app's own assets (Vite copies it and gives its URL), so it loads from this origin under the CSP, which
 * allows compiling it with `'wasm-unsafe-eval'` and nothing more.
 */
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core'
import releaseSync from '@jitl/quickjs-wasmfile-release-sync'
import wasmLocation from '@jitl/quickjs-wasmfile-release-sync/wasm?url'
import { createQuickJSRunner } from './quickjs-runner'
import { answerUserToolRequest } from './user-tool-worker-handler'
import type { UserToolWorkerRequest, UserToolWorkerResponse } from './user-tool-messages'

const runner = createQuickJSRunner(() => newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmLocation })))

// The app's TypeScript lib is DOM, not WebWorker: name only the two members used.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<UserToolWorkerRequest>) => void) | null
  postMessage: (message: UserToolWorkerResponse) => void
}

scope.onmessage = (event) => {
  const post = (message: UserToolWorkerResponse) => scope.postMessage(message)
  answerUserToolRequest(runner, event.data, post).then(post, (error: unknown) => {
    // Only loading the engine can fail here (runs never throw): say so rather than leave the call waiting.
    const reason = error instanceof Error ? error.message : String(error)
    post(event.data.type === 'check'
      ? { type: 'checked', problem: `The sandbox could not start: ${reason}` }
      : { type: 'error', name: 'SandboxError', message: `the QuickJS sandbox could not start: ${reason}`, logs: [], droppedLogs: 0 })
  })
}
