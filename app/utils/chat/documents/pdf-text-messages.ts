import type { DocumentPage } from './split-passages'

/** What the page sends the PDF text worker: the file's bytes (transferred) and its name for messages. */
export interface PdfTextRequest { bytes: Uint8Array, name: string }

/** The worker's one answer: the pages' text, or a message for the user. */
export type PdfTextResponse = { type: 'pages', pages: DocumentPage[] } | { type: 'error', message: string }
