import { answerPdfTextRequest } from '~/utils/chat/documents/pdf-text-worker-handler'
import type { PdfTextRequest, PdfTextResponse } from '~/utils/chat/documents/pdf-text-messages'

/**
 * The PDF text worker for tests: Node 20 has no Web Worker, so the worker's own handler answers in-process
 * through the same message shape; unpdf's pdf.js runs in Node as it does in the worker. Like the real worker,
 * where pdf.js greets the page on the worker's channel, it first sends pdf.js's `ready` message.
 */
export function spawnInProcessPdfTextWorker(): Worker {
  const worker = {
    onmessage: null as ((event: MessageEvent<unknown>) => void) | null,
    onerror: null,
    onmessageerror: null,
    terminated: false,
    postMessage(request: PdfTextRequest) {
      queueMicrotask(() => worker.onmessage?.({ data: { sourceName: 'worker', targetName: 'main', action: 'ready', data: null } } as MessageEvent))
      void answerPdfTextRequest(request).then((data) => {
        if (!worker.terminated) worker.onmessage?.({ data } as MessageEvent<PdfTextResponse>)
      })
    },
    terminate() {
      worker.terminated = true
    },
  }
  return worker as unknown as Worker
}
