import { answerPdfTextRequest } from '~/utils/chat/documents/pdf-text-worker-handler'
import type { PdfTextRequest, PdfTextResponse } from '~/utils/chat/documents/pdf-text-messages'

/**
 * The PDF text worker for tests: Node 20 has no Web Worker, so the worker's own handler answers in-process
 * through the same message shape; unpdf's pdf.js runs in Node as it does in the worker.
 */
export function spawnInProcessPdfTextWorker(): Worker {
  const worker = {
    onmessage: null as ((event: MessageEvent<PdfTextResponse>) => void) | null,
    onerror: null,
    onmessageerror: null,
    terminated: false,
    postMessage(request: PdfTextRequest) {
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
