/** The part of pdf.js the extractor uses; the browser build, or Node's legacy build in tests. */
export type PdfJs = Pick<typeof import('pdfjs-dist'), 'getDocument' | 'GlobalWorkerOptions'>

/**
 * pdf.js with its worker, loaded on the first PDF only (never in the app's first load). The worker file is one of
 * the app's own assets, so the page's `worker-src 'self'` allows it and no code comes from elsewhere.
 */
export async function loadPdfJs(): Promise<PdfJs> {
  const [pdfjs, worker] = await Promise.all([
    import('pdfjs-dist'),
    import('pdfjs-dist/build/pdf.worker.min.mjs?url'),
  ])
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default
  return pdfjs
}
