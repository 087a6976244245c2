import { describe, expect, it, vi } from 'vitest'
import { extractDocumentText } from '~/utils/chat/documents/extract-document'
import { documentKindOf } from '~/utils/chat/documents/document-kind'
import { MAX_DOCUMENT_PAGES, MAX_DOCUMENT_TEXT_CHARS } from '~/utils/chat/documents/document-limits'
import { POLICY_PDF_PAGES, tinyPdf } from '~~/tests/fixtures/documents/tiny-pdf'
import { spawnInProcessPdfTextWorker } from './helpers/in-process-pdf-worker'

vi.mock('~/utils/chat/documents/spawn-pdf-text-worker', () => ({ spawnPdfTextWorker: spawnInProcessPdfTextWorker }))

const file = (name: string, content: BlobPart, mime = '') => ({ name, mime, blob: new Blob([content], { type: mime }) })

describe('reading the text of an attached document', () => {
  it('reads text, Markdown, code, CSV and JSON as they are', async () => {
    for (const [name, content] of [
      ['notes.txt', 'Plain notes about the budget.'],
      ['README.md', '# Title\n\nSome *Markdown* text.'],
      ['main.py', 'def add(a, b):\n    return a + b\n'],
      ['table.csv', 'city,population\nLisbon,545000\n'],
      ['data.json', '{"refund_days": 30}'],
    ] as const) {
      expect(await extractDocumentText(file(name, content))).toEqual([{ text: content }])
    }
  })

  it('decodes UTF-8 with accents, and Windows-1252 bytes that are not UTF-8', async () => {
    expect((await extractDocumentText(file('café.txt', 'Crème brûlée à Paris')))[0]!.text).toBe('Crème brûlée à Paris')
    const latin1 = new Uint8Array([0x43, 0x72, 0xE8, 0x6D, 0x65, 0x20, 0x62, 0x72, 0xFB, 0x6C, 0xE9, 0x65])
    expect((await extractDocumentText(file('old.txt', latin1)))[0]!.text).toBe('Crème brûlée')
  })

  it('turns HTML into readable text without running its scripts or keeping its styles', async () => {
    const marker = vi.fn()
    ;(globalThis as Record<string, unknown>).documentTestMarker = marker
    const html = '<html><head><title>Policy</title><style>p { color: red }</style><script>documentTestMarker()</script></head>'
      + '<body onload="documentTestMarker()"><h1>Refunds</h1><p>Paid within <b>30 days</b>.</p><img src="x" onerror="documentTestMarker()">'
      + '<script>documentTestMarker(); document.write("injected")</script><ul><li>One</li><li>Two</li></ul></body></html>'
    const [page] = await extractDocumentText(file('policy.html', html, 'text/html'))
    expect(page!.text).toBe('Policy\n\nRefunds\n\nPaid within 30 days.\n\nOne\n\nTwo')
    expect(marker).not.toHaveBeenCalled()
    expect(page!.text).not.toContain('color')
    delete (globalThis as Record<string, unknown>).documentTestMarker
  })

  it('reads a PDF page by page through its text layer', async () => {
    const pages = await extractDocumentText(file('policy.pdf', tinyPdf(POLICY_PDF_PAGES), 'application/pdf'))
    expect(pages.map(page => page.page)).toEqual([1, 2])
    expect(pages[0]!.text).toContain('Economy class is the default for every flight.')
    expect(pages[1]!.text).toContain('A refund is paid within 30 days of a cancelled trip.')
    expect(pages[0]!.text).not.toContain('refund')
  })

  it('says a PDF without text was probably scanned', async () => {
    await expect(extractDocumentText(file('scan.pdf', tinyPdf([[], []]), 'application/pdf')))
      .rejects.toThrow('scan.pdf has no text layer (scanned?), so it cannot be searched.')
  })

  it('refuses a file named .pdf that is not a PDF, with a message', async () => {
    await expect(extractDocumentText(file('fake.pdf', 'just some words, no PDF here', 'application/pdf')))
      .rejects.toThrow('fake.pdf is not a readable PDF (damaged, or not a PDF at all).')
  })

  it('asks for the password to be removed from a locked PDF', async () => {
    await expect(extractDocumentText(file('locked.pdf', tinyPdf(POLICY_PDF_PAGES, { lockedWithPassword: true }), 'application/pdf')))
      .rejects.toThrow('locked.pdf is password-protected; remove the password and attach it again.')
  })

  it('refuses a PDF with more pages than can be searched, naming both counts', async () => {
    const pages = Array.from({ length: MAX_DOCUMENT_PAGES + 1 }, (_, index) => [`Page ${index + 1}`])
    await expect(extractDocumentText(file('long.pdf', tinyPdf(pages), 'application/pdf')))
      .rejects.toThrow(`long.pdf has ${MAX_DOCUMENT_PAGES + 1} pages; documents of at most ${MAX_DOCUMENT_PAGES} pages can be searched.`)
  })

  it('refuses binary garbage named .txt', async () => {
    const garbage = new Uint8Array(4096).map((_, index) => (index * 7919 + 13) % 256)
    await expect(extractDocumentText(file('garbage.txt', garbage))).rejects.toThrow('garbage.txt does not look like text (binary data?)')
  })

  it('refuses text longer than the cap, and kinds it cannot read, with the reason', async () => {
    await expect(extractDocumentText(file('huge.txt', 'a'.repeat(MAX_DOCUMENT_TEXT_CHARS + 1))))
      .rejects.toThrow(/huge\.txt is too large: 2,000,001 characters of text/)
    await expect(extractDocumentText(file('photo.jpg', 'x', 'image/jpeg'))).rejects.toThrow('photo.jpg: this kind of file cannot be searched')
    await expect(extractDocumentText(file('empty.md', '  \n '))).rejects.toThrow('empty.md has no text to search.')
  })

  it('knows a kind by name first, then by type', () => {
    expect(documentKindOf('report.PDF', '')).toBe('pdf')
    expect(documentKindOf('page.htm', 'application/octet-stream')).toBe('html')
    expect(documentKindOf('script.ts', 'video/mp2t')).toBe('text')
    expect(documentKindOf('Dockerfile', '')).toBe('text')
    expect(documentKindOf('data', 'application/json; charset=utf-8')).toBe('text')
    expect(documentKindOf('archive.zip', 'application/zip')).toBeUndefined()
  })
})
