import { UnsafePatternError } from '../../errors/unsafe-pattern-error'
import { installBoundedFormats } from './bounded-formats'
import { compileLinearPattern, releaseLinearPattern } from './linear-pattern'
import type { LinearPattern } from './linear-pattern'

/**
 * Work allowed to the patterns of one validation, in input characters × program instructions. Linear time is
 * not short time: re2js falls back from its DFA to a slower simulation on patterns whose states explode, about
 * 0.1–0.4 µs per unit measured here, and arguments may be 2 MiB. 2²² units is a 1 MB string against a
 * 4-instruction pattern, 100 KB against a 40-instruction one, a 4 KB string against 1,000 instructions: ordinary
 * checks use a tiny fraction of it, and the worst case stays around a second instead of growing with the input.
 */
export const MAX_PATTERN_WORK = 2 ** 22

const NativeRegExp = RegExp

let depth = 0
let workLeft = MAX_PATTERN_WORK
/** The patterns of the running validation: cfworker builds a RegExp per string, this compiles each once. */
const patternsInUse = new Map<string, LinearPattern>()

/**
 * Stands in for `RegExp` while @cfworker/json-schema validates. cfworker runs `new RegExp(pattern, 'u').test(…)`
 * for `pattern` and `patternProperties`, and its `regex` format only constructs one. So construction keeps
 * the native parse (same SyntaxError for an invalid pattern, nothing is matched), and `test` runs the pattern
 * through re2js, charged to the validation's work budget.
 */
class LinearRegExp {
  readonly source: string

  constructor(pattern: string, flags?: string) {
    this.source = pattern
    // Only cfworker's own calls are meant; anything else keeps the real thing.
    if (typeof pattern !== 'string' || flags !== 'u') return new NativeRegExp(pattern, flags) as unknown as LinearRegExp
    new NativeRegExp(pattern, flags)
  }

  test(input: string): boolean {
    let pattern = patternsInUse.get(this.source)
    if (!pattern) patternsInUse.set(this.source, pattern = compileLinearPattern(this.source))
    const text = String(input)
    const work = (text.length + 1) * pattern.programSize
    if (work > workLeft) {
      throw new UnsafePatternError({ pattern: this.source, reason: `checking it against ${text.length.toLocaleString('en')} characters would take too long (its program has ${pattern.programSize} steps per character)` })
    }
    workLeft -= work
    return pattern.test(text)
  }
}

/**
 * Runs `validate` (a synchronous cfworker validation) with every `pattern` / `patternProperties` check in
 * linear time. cfworker calls the global `RegExp` by name, so the global is swapped for the call and restored
 * in `finally`: the call is synchronous, so no other code runs while it is swapped (regex literals and
 * `String.prototype` methods use the engine's own RegExp, not the global). Throws UnsafePatternError for a
 * pattern that cannot run so, or whose work would exceed MAX_PATTERN_WORK.
 */
export function withLinearPatterns<T>(validate: () => T): T {
  installBoundedFormats()
  if (depth === 0) {
    workLeft = MAX_PATTERN_WORK
    globalThis.RegExp = LinearRegExp as unknown as RegExpConstructor
  }
  depth++
  try {
    return validate()
  }
  finally {
    depth--
    if (depth === 0) {
      globalThis.RegExp = NativeRegExp
      for (const [source, pattern] of patternsInUse) releaseLinearPattern(source, pattern)
      patternsInUse.clear()
    }
  }
}
