import { describe, expect, it } from 'vitest'
import { validateToolArguments } from '#shared/tools/validate-tool-arguments'

/**
 * The validator compares every pair of items for `uniqueItems`: a model sending thousands of items to such a tool
 * must get a refusal, not a frozen tab, and a normal call must be checked as before.
 */
const tagsSchema = { type: 'object', properties: { tags: { type: 'array', uniqueItems: true } } }
const freeSchema = { type: 'object', properties: { tags: { type: 'array' } } }

function objects(count: number): { id: number, kind: string }[] {
  return Array.from({ length: count }, (_, index) => ({ id: index, kind: 'tag' }))
}

/** An array that counts reads of its items: a deterministic stand-in for the time the check takes. */
function countingArray<T>(items: T[]): { array: T[], reads: () => number } {
  let reads = 0
  const array = new Proxy(items, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++
      return Reflect.get(target, key, receiver)
    },
  })
  return { array, reads: () => reads }
}

function messagesOf(schema: Record<string, unknown>, value: unknown): string[] {
  const result = validateToolArguments('tag', schema, value)
  return result.valid ? [] : result.error.issues.map(issue => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
}

describe('validateToolArguments: uniqueItems on large arrays', () => {
  it('refuses 8,000 items for a tool that wants them unique, reading each item about once', () => {
    const { array, reads } = countingArray(objects(8_000))
    expect(messagesOf(tagsSchema, { tags: array })).toEqual([
      'arguments are too large to check for duplicate items: an array of 8000 items among 24002 values; send fewer items',
    ])
    expect(reads()).toBeLessThanOrEqual(2 * 8_000)
  })

  it('still checks a few hundred items for duplicates', () => {
    expect(messagesOf(tagsSchema, { tags: objects(500) })).toEqual([])
    expect(messagesOf(tagsSchema, { tags: [...objects(500), { id: 7, kind: 'tag' }] })).toEqual(['tags: must not contain duplicate items'])
  })

  it('takes large arrays for tools that do not ask for unique items', () => {
    expect(messagesOf(freeSchema, { tags: objects(8_000) })).toEqual([])
  })
})
