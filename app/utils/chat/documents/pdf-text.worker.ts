/**
 * Entry of the PDF text worker: a dedicated module Web Worker, one per PDF, that parses the file with pdf.js off
 * the page's thread and posts back the pages' text. It is one of the app's own files, so `worker-src 'self'` allows
 * it, and pdf.js runs without eval.
 */
import { answerPdfTextRequest } from './pdf-text-worker-handler'
import type { PdfTextRequest, PdfTextResponse } from './pdf-text-messages'

// The app's TypeScript lib is DOM, not WebWorker: name only the two members used.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PdfTextRequest>) => void) | null
  postMessage: (message: PdfTextResponse) => void
}

scope.onmessage = (event) => {
  void answerPdfTextRequest(event.data).then(response => scope.postMessage(response))
}
