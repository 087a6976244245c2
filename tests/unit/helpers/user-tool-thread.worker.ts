/**
 * A user tool worker for Node tests, on a real thread (worker_threads): the same runner and request handler as the
 * app's worker, so the page's side can be tested killing a worker that is busy inside QuickJS.
 */
import { parentPort } from 'node:worker_threads'
import { newQuickJSWASMModuleFromVariant } from 'quickjs-emscripten-core'
import releaseSync from '@jitl/quickjs-wasmfile-release-sync'
import { createQuickJSRunner } from '../../../app/utils/chat/user-tools/quickjs-runner'
import { answerUserToolRequest } from '../../../app/utils/chat/user-tools/user-tool-worker-handler'
import type { UserToolWorkerRequest, UserToolWorkerResponse } from '../../../app/utils/chat/user-tools/user-tool-messages'

const runner = createQuickJSRunner(() => newQuickJSWASMModuleFromVariant(releaseSync))
const port = parentPort!
const post = (message: UserToolWorkerResponse) => port.postMessage(message)

// Loads the engine at once and says so, so a test can time a call from a warm worker.
void runner.checkSyntax('').then(() => port.postMessage('ready'))

port.on('message', (request: UserToolWorkerRequest) => {
  answerUserToolRequest(runner, request, post).then(post, (error: unknown) => {
    post({ type: 'error', name: 'SandboxError', message: String(error), logs: [], droppedLogs: 0 })
  })
})
