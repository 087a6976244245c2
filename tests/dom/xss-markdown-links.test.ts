import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '~/utils/chat/markdown/markdown'
import { loadXssVectors, unsafePayloads } from './xss-inspect'

const vectors = loadXssVectors()

describe('renderMarkdown with XSS payloads in links and images', () => {
  it(`makes no dangerous link from any of the ${vectors.length} payloads as a link target`, () => {
    const unsafe = unsafePayloads(vectors, payload => renderMarkdown(`[click](${payload})`))
    console.log(`[xss] link target: ${vectors.length - unsafe.length}/${vectors.length} safe`)
    expect(unsafe.slice(0, 5)).toEqual([])
  }, 180_000)

  it(`makes no dangerous link from any of the ${vectors.length} payloads after javascript:`, () => {
    const unsafe = unsafePayloads(vectors, payload => renderMarkdown(`[x](javascript:${payload})`))
    console.log(`[xss] [x](javascript:payload): ${vectors.length - unsafe.length}/${vectors.length} safe`)
    expect(unsafe.slice(0, 5)).toEqual([])
  }, 180_000)

  it(`makes no dangerous image from any of the ${vectors.length} payloads as image source and alt text`, () => {
    const unsafe = unsafePayloads(vectors, payload => renderMarkdown(`![${payload}](${payload})`))
    console.log(`[xss] image: ${vectors.length - unsafe.length}/${vectors.length} safe`)
    expect(unsafe.slice(0, 5)).toEqual([])
  }, 180_000)
})
