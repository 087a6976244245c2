import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '~/utils/chat/markdown/markdown'
import { loadXssVectors, unsafePayloads } from './xss-inspect'

const vectors = loadXssVectors()

describe('renderMarkdown with XSS payloads in code', () => {
  it(`keeps all ${vectors.length} payloads inert inside a code fence`, () => {
    const unsafe = unsafePayloads(vectors, payload => renderMarkdown(`\`\`\`html\n${payload}\n\`\`\``))
    console.log(`[xss] code fence: ${vectors.length - unsafe.length}/${vectors.length} safe`)
    expect(unsafe.slice(0, 5)).toEqual([])
  }, 180_000)

  it(`keeps all ${vectors.length} payloads inert inside inline code`, () => {
    const unsafe = unsafePayloads(vectors, payload => renderMarkdown(`Run \`\`${payload.replace(/`/g, '')}\`\` now`))
    console.log(`[xss] inline code: ${vectors.length - unsafe.length}/${vectors.length} safe`)
    expect(unsafe.slice(0, 5)).toEqual([])
  }, 180_000)
})
