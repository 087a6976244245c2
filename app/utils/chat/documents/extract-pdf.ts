import type { DocumentPage } from './split-passages'
import { isPdfTextResponse, type PdfTextRequest, type PdfTextResponse } from './pdf-text-messages'
import { spawnPdfTextWorker } from './spawn-pdf-text-worker'

/**
 * The text layer of a PDF, one entry per page (1-based `page`), read by pdf.js in a worker of its own so a long
 * file never freezes the page; the worker is ended once it answers. Throws a message for the user for a file that
 * is not a PDF, is locked, is too long, or has no text (a scan) — see `read-pdf-pages.ts`.
 */
export async function extractPdfPages(bytes: Uint8Array, name: string): Promise<DocumentPage[]> {
  const worker = spawnPdfTextWorker()
  try {
    const response = await new Promise<PdfTextResponse>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<unknown>) => {
        if (isPdfTextResponse(event.data)) resolve(event.data)
      }
      worker.onerror = (event) => {
        event.preventDefault?.()
        reject(new Error(`${name} could not be read as a PDF (the PDF reader did not start: ${event.message || 'unknown error'}).`))
      }
      worker.onmessageerror = () => reject(new Error(`${name} could not be read as a PDF (its text could not be passed back).`))
      const request: PdfTextRequest = { bytes, name }
      worker.postMessage(request, [bytes.buffer])
    })
    if (response.type === 'error') throw new Error(response.message)
    return response.pages
  }
  finally {
    worker.terminate()
  }
}
