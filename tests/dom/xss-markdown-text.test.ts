import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '~/utils/chat/markdown/markdown'
import { loadXssVectors, unsafePayloads } from './xss-inspect'

const vectors = loadXssVectors()

describe('renderMarkdown with XSS payloads as text', () => {
  it(`renders none of the ${vectors.length} payloads as active content when they are the whole reply`, () => {
    const unsafe = unsafePayloads(vectors, payload => renderMarkdown(payload))
    console.log(`[xss] raw markdown: ${vectors.length - unsafe.length}/${vectors.length} safe`)
    expect(unsafe.slice(0, 5)).toEqual([])
  }, 180_000)

  it(`renders none of the ${vectors.length} payloads as active content inside a paragraph`, () => {
    const unsafe = unsafePayloads(vectors, payload => renderMarkdown(`Here is the result: ${payload} — done.`))
    console.log(`[xss] HTML fragment inside markdown: ${vectors.length - unsafe.length}/${vectors.length} safe`)
    expect(unsafe.slice(0, 5)).toEqual([])
  }, 180_000)
})
