import type { PdfJs } from '~/utils/chat/documents/pdfjs-loader'

/** pdf.js for tests: Node's legacy build, its worker run in-process (the app's build needs a browser). */
export async function loadNodePdfJs(): Promise<PdfJs> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  pdfjs.GlobalWorkerOptions.workerSrc = 'pdfjs-dist/legacy/build/pdf.worker.mjs'
  return pdfjs
}
