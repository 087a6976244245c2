/**
 * Entry of a user tool's worker: a dedicated module Web Worker that runs handlers in QuickJS. The wasm file is one
 * of the app's own assets (Vite copies it and gives its URL), so it loads from this origin under the CSP, which
 * allows compiling it with `'wasm-unsafe-eval'` and nothing more.
 */
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core'
import releaseSync from '@jitl/quickjs-wasmfile-release-sync'
import wasmLocation from '@jitl/quickjs-wasmfile-release-sync/wasm?url'
import { createQuickJSRunner } from './quickjs-runner'
import type { UserToolWorkerRequest, UserToolWorkerResponse } from './user-tool-messages'

const runner = createQuickJSRunner(() => newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmLocation })))

// The app's TypeScript lib is DOM, not WebWorker: name only the two members used.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<UserToolWorkerRequest>) => void) | null
  postMessage: (message: UserToolWorkerResponse) => void
}

/** Console lines shown on the tool card while the call finishes (the editor's test run shows them all). */
const STATUS_MAX_CHARS = 300

async function handle(request: UserToolWorkerRequest): Promise<UserToolWorkerResponse> {
  if (request.type === 'check') return { type: 'checked', problem: await runner.checkSyntax(request.code) }
  const outcome = await runner.run({ code: request.code, args: request.args, timeoutMs: request.timeoutMs })
  if (outcome.logs.length) {
    const text = outcome.logs.join(' · ')
    scope.postMessage({ type: 'status', text: text.length > STATUS_MAX_CHARS ? `${text.slice(0, STATUS_MAX_CHARS)}…` : text })
  }
  return outcome.ok
    ? { type: 'result', value: outcome.value, logs: outcome.logs, droppedLogs: outcome.droppedLogs }
    : { type: 'error', ...outcome.error, logs: outcome.logs, droppedLogs: outcome.droppedLogs }
}

scope.onmessage = (event) => {
  handle(event.data).then(message => scope.postMessage(message), (error: unknown) => {
    // Only loading the engine can fail here (runs never throw): say so rather than leave the call waiting.
    const reason = error instanceof Error ? error.message : String(error)
    scope.postMessage(event.data.type === 'check'
      ? { type: 'checked', problem: `The sandbox could not start: ${reason}` }
      : { type: 'error', name: 'SandboxError', message: `the QuickJS sandbox could not start: ${reason}`, logs: [], droppedLogs: 0 })
  })
}
