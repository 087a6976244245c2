import type { DocumentPage } from './split-passages'

/** What the page sends the PDF text worker: the file's bytes (transferred) and its name for messages. */
export interface PdfTextRequest { bytes: Uint8Array, name: string }

/** The worker's one answer: the pages' text, or a message for the user. */
export type PdfTextResponse = { type: 'pages', pages: DocumentPage[] } | { type: 'error', message: string }

/**
 * Whether a message from the worker is its answer. pdf.js, loaded in a worker, also greets the page on the same
 * channel (its own `ready` message, meant for a page that drives it as its worker), which must be ignored.
 */
export function isPdfTextResponse(data: unknown): data is PdfTextResponse {
  const type = (data as { type?: unknown } | null)?.type
  return type === 'pages' || type === 'error'
}
