import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

describe('the pdf.js that reads attached PDFs', () => {
  it('never compiles code at run time, so it works under a CSP without unsafe-eval', () => {
    const source = readFileSync(fileURLToPath(import.meta.resolve('unpdf/pdfjs')), 'utf8')
    expect(source.length).toBeGreaterThan(100_000)
    expect(source).not.toMatch(/\bnew Function\s*\(|(?<![.\w$])eval\s*\(/)
  })
})
