import { decodeText } from './decode-text'
import { documentKindOf } from './document-kind'
import { MAX_DOCUMENT_BYTES, MAX_DOCUMENT_TEXT_CHARS } from './document-limits'
import { extractHtmlText } from './extract-html'
import type { DocumentPage } from './split-passages'

/** A file to read: its name and type as attached, and its bytes. */
export interface DocumentSource {
  name: string
  mime: string
  blob: Blob
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`
}

async function readBytes(blob: Blob): Promise<Uint8Array> {
  if (typeof blob.arrayBuffer === 'function') return new Uint8Array(await blob.arrayBuffer())
  // A Blob without `arrayBuffer()` (jsdom's, some polyfills) is still read by its realm's FileReader.
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer))
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'))
    reader.readAsArrayBuffer(blob)
  })
}

/**
 * The text of a document, by page for a PDF and as one page for the other kinds. Throws an Error whose message is
 * for the user: an unsupported kind, a file too large, text too long, binary data, a broken or scanned PDF.
 */
export async function extractDocumentText(source: DocumentSource): Promise<DocumentPage[]> {
  const { name, mime, blob } = source
  const kind = documentKindOf(name, mime)
  if (!kind) throw new Error(`${name}: this kind of file cannot be searched (text, Markdown, code, CSV, JSON, HTML and PDF can).`)
  if (blob.size > MAX_DOCUMENT_BYTES) {
    throw new Error(`${name} is too large (${megabytes(blob.size)}); documents of up to ${megabytes(MAX_DOCUMENT_BYTES)} can be searched.`)
  }
  const bytes = await readBytes(blob)
  let pages: DocumentPage[]
  if (kind === 'pdf') {
    // pdf.js is loaded only now, with the first PDF.
    const { extractPdfPages } = await import('./extract-pdf')
    pages = await extractPdfPages(bytes, name)
  }
  else {
    const text = decodeText(bytes, name)
    pages = [{ text: kind === 'html' ? extractHtmlText(text) : text }]
  }
  const characters = pages.reduce((sum, page) => sum + page.text.length, 0)
  if (characters > MAX_DOCUMENT_TEXT_CHARS) {
    throw new Error(`${name} is too large: ${characters.toLocaleString('en')} characters of text, at most ${MAX_DOCUMENT_TEXT_CHARS.toLocaleString('en')} can be searched. Split it into smaller files.`)
  }
  if (!pages.some(page => page.text.trim())) throw new Error(`${name} has no text to search.`)
  return pages
}
