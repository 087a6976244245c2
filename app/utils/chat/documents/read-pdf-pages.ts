import { MAX_DOCUMENT_PAGES } from './document-limits'
import type { DocumentPage } from './split-passages'
import { loadPdfJs } from './pdfjs-loader'

interface TextItemLike { str?: string, hasEOL?: boolean }

/** Why pdf.js refused a file, in the user's words. */
function describePdfFailure(error: unknown, name: string): string {
  const kind = (error as { name?: string } | undefined)?.name
  if (kind === 'PasswordException') return `${name} is password-protected; remove the password and attach it again.`
  if (kind === 'InvalidPDFException' || kind === 'FormatError') return `${name} is not a readable PDF (damaged, or not a PDF at all).`
  return `${name} could not be read as a PDF (${error instanceof Error ? error.message : String(error)}).`
}

/**
 * The text layer of a PDF, one entry per page (1-based `page`), read in the current thread (the app calls it in
 * the PDF text worker). Scripts in the PDF never run; this pdf.js interprets PDF functions rather than compiling
 * them to code (no eval: the page's CSP has no `unsafe-eval`; `pdfjs-no-eval.test.ts` checks the build), and it is
 * told not to load fonts, which reading text does not need. Throws a message for the user for a file that is not a PDF, is locked, is too long, or has no text (a scan).
 */
export async function readPdfPages(bytes: Uint8Array, name: string): Promise<DocumentPage[]> {
  const pdfjs = await loadPdfJs()
  const task = pdfjs.getDocument({
    data: bytes,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    isOffscreenCanvasSupported: false,
    stopAtErrors: false,
    verbosity: 0,
  })
  try {
    let document
    try {
      document = await task.promise
    }
    catch (error) {
      throw new Error(describePdfFailure(error, name))
    }
    if (document.numPages > MAX_DOCUMENT_PAGES) {
      throw new Error(`${name} has ${document.numPages} pages; documents of at most ${MAX_DOCUMENT_PAGES} pages can be searched.`)
    }
    const pages: DocumentPage[] = []
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number)
      const content = await page.getTextContent()
      const text = (content.items as TextItemLike[]).map(item => `${item.str ?? ''}${item.hasEOL ? '\n' : ''}`).join('')
      page.cleanup()
      pages.push({ page: number, text })
    }
    if (!pages.some(page => page.text.trim())) throw new Error(`${name} has no text layer (scanned?), so it cannot be searched.`)
    return pages
  }
  finally {
    await task.destroy()
  }
}
