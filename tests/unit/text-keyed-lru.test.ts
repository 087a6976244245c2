import { describe, expect, it } from 'vitest'
import { createTextKeyedLru } from '~/utils/chat/markdown/text-keyed-lru'

describe('createTextKeyedLru', () => {
  it('forgets the least recently used entries once the keys pass the bound', () => {
    const cache = createTextKeyedLru<number>(100)
    for (const key of ['a'.repeat(10), 'b'.repeat(10), 'c'.repeat(10)]) cache.set(key, key.length)
    expect(cache.get('a'.repeat(10))).toBe(10) // now the most recently used
    for (let i = 0; i < 9; i += 1) cache.set(String(i).repeat(10), i)
    expect(cache.has('b'.repeat(10))).toBe(false)
    expect(cache.has('c'.repeat(10))).toBe(false)
    expect(cache.get('a'.repeat(10))).toBe(10)
    expect(cache.get('8'.repeat(10))).toBe(8)
  })

  it('never keeps a key longer than a tenth of the bound, and counts a replaced key once', () => {
    const cache = createTextKeyedLru<string>(100)
    cache.set('x'.repeat(11), 'huge')
    expect(cache.has('x'.repeat(11))).toBe(false)
    for (let i = 0; i < 50; i += 1) cache.set('same-key', String(i))
    cache.set('k'.repeat(10), 'other')
    expect(cache.get('same-key')).toBe('49')
    expect(cache.get('k'.repeat(10))).toBe('other')
  })

  it('keeps falsy values', () => {
    const cache = createTextKeyedLru<string>(100)
    cache.set('empty', '')
    expect(cache.get('empty')).toBe('')
    expect(cache.get('missing')).toBeUndefined()
  })
})
