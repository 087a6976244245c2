import { getResolvedPDFJS } from 'unpdf'

/** The part of pdf.js the extractor uses. */
export type PdfJs = Pick<Awaited<ReturnType<typeof getResolvedPDFJS>>, 'getDocument'>

/**
 * unpdf's serverless pdf.js build, which parses in the calling thread (its worker is inlined) and runs the same in
 * a Web Worker and in Node. Loaded only inside the PDF text worker, so the page never downloads it before a PDF.
 */
export async function loadPdfJs(): Promise<PdfJs> {
  return await getResolvedPDFJS()
}
