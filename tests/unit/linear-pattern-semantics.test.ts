// The linear-time engine must give the verdict JSON Schema's ECMAScript `u`-mode patterns give: the pieces whose
// meaning differs between ECMAScript and RE2 (`.`, `\s`, `[^]`, `\p{…}` names, `\u` pairs...), checked against
// V8's own RegExp on random strings made of the characters where they differ.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileLinearPattern } from '#shared/tools/patterns/linear-pattern'

/** Characters on which ECMAScript and RE2 classes disagree, plus ordinary ones. */
const TRICKY = ['a', 'Z', '_', '0', '9', '٣', ' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2003', '\u2028', '\u2029',
  '\u202f', '\u3000', '\ufeff', '\u200b', '\b', '\0', '\u0001', 'é', 'Ω', 'ß', 'ж', '中', '😀', '\ud83d', '-', '/', '.', '$', 'x', 'b', 'c']

const PATTERNS = [
  '^.$', '^.+$', 'a.b', '^\\s+$', '^\\S+$', '^[\\s\\d]+$', '^[^\\s]+$', '^[\\S-]+$', '^[^]$', '^[]?$', '^\\w+$', '^\\W$', '^\\d+$',
  '\\bab', '^\\p{L}+$', '^\\p{Letter}+$', '^\\p{Lu}', '^\\P{L}+$', '^[\\p{L}\\p{N}]+$', '^\\p{Script=Greek}$', '^\\p{sc=Cyrillic}$',
  '^\\p{General_Category=Decimal_Number}+$', '^\\p{ASCII}+$', '^[\\P{ASCII}]+$', '^\\u{1F600}$', '^\\uD83D\\uDE00$', '^\\u00e9$',
  '^\\x41', '\\cJ', '\\0', '^\\v$', '^[\\b]$', '^\\/$', '^a\\.b$', '^(?<name>a)b', '^(?:a|b)+$', 'a$', '^$', '', '^[a-c-]+$',
  '^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$', '^\\d{4}-\\d{2}-\\d{2}$', '^[^\\n]*$', '^[\\u0000-\\u001f]$', '^\\p{Emoji_Presentation}$',
]

describe('patterns keep their ECMAScript meaning', () => {
  it.each(PATTERNS)('%s gives the verdict of new RegExp(pattern, "u")', (pattern) => {
    const native = new RegExp(pattern, 'u')
    const linear = compileLinearPattern(pattern)
    fc.assert(fc.property(fc.array(fc.constantFrom(...TRICKY), { maxLength: 6 }), (characters) => {
      const input = characters.join('')
      expect(linear.test(input), JSON.stringify(input)).toBe(native.test(input))
    }), { numRuns: 300 })
  })

  it('matches anywhere in the string, as JSON Schema\'s unanchored patterns do', () => {
    expect(compileLinearPattern('b+').test('abbbc')).toBe(true)
    expect(compileLinearPattern('^b').test('ab')).toBe(false)
    expect(compileLinearPattern('a$').test('a\n')).toBe(false)
  })
})
