import { readPdfPages } from './read-pdf-pages'
import type { PdfTextRequest, PdfTextResponse } from './pdf-text-messages'

/** Answers one request of the PDF text worker; never throws, so the page always hears back. */
export async function answerPdfTextRequest(request: PdfTextRequest): Promise<PdfTextResponse> {
  try {
    return { type: 'pages', pages: await readPdfPages(request.bytes, request.name) }
  }
  catch (error) {
    return { type: 'error', message: error instanceof Error ? error.message : String(error) }
  }
}
