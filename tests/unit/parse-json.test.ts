import { describe, expect, it } from 'vitest'
import { parseJson, tryParseJson } from '#shared/security/parse-json'

describe('the one JSON parser for input the app did not write', () => {
  it('drops __proto__, constructor and prototype at every depth, escaped spellings included', () => {
    const value = parseJson('{"a":{"__proto__":{"polluted":1},"b":[{"constructor":{"prototype":{"polluted":2}}}]},"\\u005f_proto__":{"polluted":3},"keep":true}')
    expect(value).toEqual({ a: { b: [{}] }, keep: true })
    expect(Object.assign({}, value, (value as { a: object }).a)).not.toHaveProperty('polluted')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('reads clean text exactly as JSON.parse does', () => {
    const text = JSON.stringify({ list: [1, 'two', null, { nested: false }], text: 'a "constructive" note' })
    expect(parseJson(text)).toEqual(JSON.parse(text))
  })

  it('throws a SyntaxError for text that is not JSON, and tryParseJson returns it as data', () => {
    expect(() => parseJson('{"a":')).toThrow(SyntaxError)
    expect(tryParseJson('{"a":')).toEqual({ ok: false, error: expect.any(String) })
    expect(tryParseJson('[1]')).toEqual({ ok: true, value: [1] })
  })
})
