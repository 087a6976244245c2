/**
 * A cache keyed by text, bounded by the total length of its keys: reading an entry makes it the most recently used,
 * and the least recently used entries are forgotten once the keys pass `maxChars`. A key longer than a tenth of
 * `maxChars` is never kept (one huge entry would push out everything else).
 */
export interface TextKeyedLru<V> {
  get(key: string): V | undefined
  set(key: string, value: V): void
  has(key: string): boolean
}

export function createTextKeyedLru<V>(maxChars: number): TextKeyedLru<V> {
  const entries = new Map<string, V>()
  let chars = 0
  return {
    get(key) {
      if (!entries.has(key)) return undefined
      const value = entries.get(key) as V
      entries.delete(key)
      entries.set(key, value)
      return value
    },
    set(key, value) {
      if (key.length > maxChars / 10) return
      if (entries.has(key)) chars -= key.length
      entries.delete(key)
      entries.set(key, value)
      chars += key.length
      for (const old of entries.keys()) {
        if (chars <= maxChars) break
        entries.delete(old)
        chars -= old.length
      }
    },
    has: key => entries.has(key),
  }
}
