import { expect, test, type Page } from '@playwright/test'
import { POLICY_PDF_PAGES, tinyPdf } from '../fixtures/documents/tiny-pdf'
import { lastAssistant, openApp, sendMessage, waitForIdle } from './helpers'

/** The file names whose passages are stored for search (IndexedDB, read without the app's code). */
function storedDocumentNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('plugboard')
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    try {
      if (!db.objectStoreNames.contains('documentPassages')) return []
      const rows = await new Promise<Array<{ name: string }>>((resolve, reject) => {
        const request = db.transaction('documentPassages').objectStore('documentPassages').getAll()
        request.onsuccess = () => resolve(request.result as Array<{ name: string }>)
        request.onerror = () => reject(request.error)
      })
      return [...new Set(rows.map(row => row.name))].sort()
    }
    finally {
      db.close()
    }
  })
}

/**
 * The build's PDF code by its file names (`pdf-text.worker-<hash>.js`, `pdfjs-<hash>.js`), not by "pdf" anywhere in a
 * path: a chunk named only by its hash once read `DEgNPdfc.js`.
 */
const PDF_CODE = /^\/_nuxt\/pdf(?:js|-text\.worker)-[\w-]+\.js$/

const MARKDOWN = '# Packing list\n\nBring a passport and an umbrella for Lisbon.\n\nShoes: one pair for walking.'

test.describe('documents the model can search', () => {
  test('a PDF and a Markdown file attached: the model is offered search_documents and cites the passage with its page', async ({ page }) => {
    const violations: string[] = []
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
    })
    const loaded: string[] = []
    page.on('request', request => loaded.push(new URL(request.url()).pathname))
    // the PDF is read off the page's thread, in a worker of its own that is ended once it has answered
    const pdfWorkers: string[] = []
    const endedPdfWorkers: string[] = []
    page.on('worker', (worker) => {
      if (!/pdf-text\.worker/.test(worker.url())) return
      pdfWorkers.push(worker.url())
      worker.on('close', () => endedPdfWorkers.push(worker.url()))
    })
    await openApp(page)
    // pdf.js comes with the first PDF, not with the app
    expect(loaded.filter(path => PDF_CODE.test(path))).toEqual([])

    await page.locator('input[data-testid="composer-attach-input"]').setInputFiles([
      { name: 'policy.pdf', mimeType: 'application/pdf', buffer: Buffer.from(tinyPdf(POLICY_PDF_PAGES)) },
      { name: 'packing.md', mimeType: 'text/markdown', buffer: Buffer.from(MARKDOWN) },
    ])
    await sendMessage(page, 'What does the PDF say about refunds?')
    await waitForIdle(page)
    await expect(page.locator('[data-testid="tool-card"][data-tool="search_documents"]').first()).toBeVisible()
    const reply = lastAssistant(page)
    await expect(reply).toContainText('A refund is paid within 30 days of a cancelled trip.')
    await expect(reply).toContainText('policy.pdf, page 2')
    expect(await storedDocumentNames(page)).toEqual(['packing.md', 'policy.pdf'])
    expect(pdfWorkers).toHaveLength(1)
    // the files the check above looked for, loaded now that a PDF came
    expect(loaded.some(path => PDF_CODE.test(path))).toBe(true)
    await expect.poll(() => endedPdfWorkers).toEqual(pdfWorkers)

    // the index is rebuilt from the stored passages after a reload
    await page.reload()
    await openApp(page, page.url())
    await sendMessage(page, 'Does the attached file say to bring an umbrella?')
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('Bring a passport and an umbrella for Lisbon.')
    await expect(lastAssistant(page)).toContainText('packing.md')
    expect(violations).toEqual([])
  })

  test('a chat without documents is not offered search_documents', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'What does the PDF say about refunds?')
    await waitForIdle(page)
    await expect(page.locator('[data-testid="tool-card"][data-tool="search_documents"]')).toHaveCount(0)
  })
})
