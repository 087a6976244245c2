/**
 * JSON Schema's `pattern` is an ECMAScript regular expression, read with the `u` flag (as cfworker does); re2js
 * reads RE2 syntax. Most patterns are written alike in both, but a few pieces mean something else, and those are
 * rewritten here so a pattern keeps the verdict it had under `new RegExp(pattern, 'u')`:
 * - `.` stops at \n, \r, U+2028 and U+2029 (RE2's only at \n); `\s` is Unicode white space (RE2's is ASCII);
 * - `\u{…}`, `\uXXXX` (surrogate pairs joined), `\xHH`, `\cX`, `\0`, `\v` and `\b` in a class become `\x{…}`;
 * - `\p{Letter}`, `\p{gc=Lu}`, `\p{Script=Greek}`, `\p{ASCII}` take the names RE2 knows;
 * - `[^]` (anything) and `[]` (nothing), `(?<name>…)` (names only matter to backreferences, refused anyway).
 * Backreferences and lookaround cannot run in linear time: they are refused with the reason.
 *
 * The input must already be a valid `u`-mode pattern (the caller parses it natively first): `u` mode has no
 * Annex B leniency, so every `\` is followed by a known escape and every `{` opens a quantifier.
 */

/** Why a valid ECMAScript pattern has no linear-time equivalent. */
export class PatternNotLinearError extends Error {
  override readonly name = 'PatternNotLinearError'
}

const WHITE_SPACE = '\\t\\n\\x{B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}'
/** Everything but WHITE_SPACE, spelled out: RE2 cannot negate a class inside a class (`[\S-]`). */
const NOT_WHITE_SPACE = '\\x{0}-\\x{8}\\x{E}-\\x{1F}\\x{21}-\\x{9F}\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}'
  + '\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}'
const ANY = '\\x{0}-\\x{10FFFF}'
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]'

/** ECMAScript's long General_Category names; RE2 knows the short ones. */
const CATEGORY_NAMES: Record<string, string> = {
  Letter: 'L', Uppercase_Letter: 'Lu', Lowercase_Letter: 'Ll', Titlecase_Letter: 'Lt', Modifier_Letter: 'Lm',
  Other_Letter: 'Lo', Mark: 'M', Combining_Mark: 'M', Nonspacing_Mark: 'Mn', Spacing_Mark: 'Mc', Enclosing_Mark: 'Me',
  Number: 'N', Decimal_Number: 'Nd', digit: 'Nd', Letter_Number: 'Nl', Other_Number: 'No', Punctuation: 'P',
  punct: 'P', Connector_Punctuation: 'Pc', Dash_Punctuation: 'Pd', Open_Punctuation: 'Ps', Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi', Final_Punctuation: 'Pf', Other_Punctuation: 'Po', Symbol: 'S', Math_Symbol: 'Sm',
  Currency_Symbol: 'Sc', Modifier_Symbol: 'Sk', Other_Symbol: 'So', Separator: 'Z', Space_Separator: 'Zs',
  Line_Separator: 'Zl', Paragraph_Separator: 'Zp', Other: 'C', Control: 'Cc', cntrl: 'Cc', Format: 'Cf',
  Surrogate: 'Cs', Private_Use: 'Co', Unassigned: 'Cn',
}

/** The RE2 spelling of the valid `u`-mode pattern `source`; throws PatternNotLinearError when there is none. */
export function ecmascriptToRe2(source: string): string {
  let out = ''
  let inClass = false
  let i = 0
  while (i < source.length) {
    const char = source[i]!
    if (char === '\\') {
      const { text, length } = translateEscape(source, i, inClass)
      out += text
      i += length
      continue
    }
    if (inClass) {
      if (char === ']') inClass = false
      out += char === '[' ? '\\[' : char
      i++
      continue
    }
    if (char === '[') {
      const negated = source[i + 1] === '^'
      const bodyStart = i + (negated ? 2 : 1)
      if (source[bodyStart] === ']') {
        // `[]` never matches and `[^]` matches anything; RE2 would read the `]` as a member.
        out += negated ? `[${ANY}]` : `[^${ANY}]`
        i = bodyStart + 1
        continue
      }
      out += negated ? '[^' : '['
      inClass = true
      i = bodyStart
      continue
    }
    if (char === '(' && source[i + 1] === '?') {
      const { text, length } = translateGroupOpening(source, i)
      out += text
      i += length
      continue
    }
    out += char === '.' ? DOT : char
    i++
  }
  return out
}

function translateGroupOpening(source: string, at: number): { text: string, length: number } {
  const next = source[at + 2]
  if (next === ':') return { text: '(?:', length: 3 }
  if (next === '=' || next === '!') throw new PatternNotLinearError('lookahead (?= or (?! needs a backtracking engine')
  if (next === '<' && (source[at + 3] === '=' || source[at + 3] === '!')) {
    throw new PatternNotLinearError('lookbehind (?<= or (?<! needs a backtracking engine')
  }
  if (next === '<') return { text: '(', length: source.indexOf('>', at) - at + 1 }
  throw new PatternNotLinearError(`the group syntax ${source.slice(at, at + 4)} is not supported`)
}

/** One escape at `at` (a backslash), as RE2 text and the length it took in `source`. */
function translateEscape(source: string, at: number, inClass: boolean): { text: string, length: number } {
  const letter = source[at + 1]!
  switch (letter) {
    case 'd': case 'D': case 'w': case 'W': case 't': case 'n': case 'r': case 'f':
      return { text: `\\${letter}`, length: 2 }
    case 'b': case 'B':
      return { text: inClass ? '\\x{8}' : `\\${letter}`, length: 2 }
    case 'v': return { text: '\\x{B}', length: 2 }
    case '0': return { text: '\\x{0}', length: 2 }
    case 's': return { text: inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`, length: 2 }
    case 'S': return { text: inClass ? NOT_WHITE_SPACE : `[${NOT_WHITE_SPACE}]`, length: 2 }
    case 'c': return { text: `\\x{${(source.charCodeAt(at + 2) % 32).toString(16)}}`, length: 3 }
    case 'x': return { text: `\\x{${source.slice(at + 2, at + 4)}}`, length: 4 }
    case 'u': return translateUnicodeEscape(source, at)
    case 'p': case 'P': {
      const end = source.indexOf('}', at)
      return { text: translateProperty(source.slice(at + 3, end), letter === 'P', inClass), length: end - at + 1 }
    }
    case 'k': throw new PatternNotLinearError('the backreference \\k<…> needs a backtracking engine')
    default:
      if (letter >= '1' && letter <= '9') throw new PatternNotLinearError(`the backreference \\${letter} needs a backtracking engine`)
      // What is left in `u` mode is an escaped syntax character (`\.`, `\/`, `\-`...), which RE2 reads alike.
      return { text: `\\${letter}`, length: 2 }
  }
}

/** `\u{1F600}`, `\uD83D\uDE00` (a pair is one code point in `u` mode) and `\u00E9` → `\x{…}`. */
function translateUnicodeEscape(source: string, at: number): { text: string, length: number } {
  if (source[at + 2] === '{') {
    const end = source.indexOf('}', at)
    return { text: `\\x{${source.slice(at + 3, end)}}`, length: end - at + 1 }
  }
  const code = Number.parseInt(source.slice(at + 2, at + 6), 16)
  const low = /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(source.slice(at + 6, at + 12)) ? Number.parseInt(source.slice(at + 8, at + 12), 16) : -1
  if (code >= 0xD800 && code <= 0xDBFF && low >= 0) {
    return { text: `\\x{${(((code - 0xD800) << 10) + (low - 0xDC00) + 0x10000).toString(16)}}`, length: 12 }
  }
  return { text: `\\x{${code.toString(16)}}`, length: 6 }
}

/** `\p{…}` / `\P{…}` with ECMAScript's names → RE2's, as class members when `inClass`, else as a class. */
function translateProperty(body: string, negated: boolean, inClass: boolean): string {
  const [key, value] = body.includes('=') ? body.split('=') as [string, string] : ['', body]
  if (key === 'Script_Extensions' || key === 'scx') throw new PatternNotLinearError(`\\p{${body}}: Script_Extensions is not supported, use Script=`)
  if (value === 'ASCII') {
    const members = negated ? '\\x{80}-\\x{10FFFF}' : '\\x{0}-\\x{7F}'
    return inClass ? members : `[${members}]`
  }
  const name = key === 'Script' || key === 'sc' ? value : CATEGORY_NAMES[value] ?? value
  // RE2 reads `\p{…}` alike in and out of a class; an unknown name is refused by re2js with its own message.
  return `\\${negated ? 'P' : 'p'}{${name}}`
}
