import { RE2JS } from 're2js'
import { UnsafePatternError } from '../../errors/unsafe-pattern-error'
import { ecmascriptToRe2, PatternNotLinearError } from './ecmascript-to-re2'

/**
 * Longest pattern compiled. Real ones (dates, ids, even RFC 5322 e-mail) stay under a few hundred characters;
 * compiling costs time and memory in proportion to the length, and RE2 refuses much larger programs anyway.
 */
export const MAX_PATTERN_CHARS = 4_096

/**
 * Compiled patterns kept, least recently used dropped first. A schema's patterns are tested once per string
 * it checks, and compiling one costs far more than a test; refusals are kept too, so a refused pattern sent
 * again is not translated again.
 */
const MAX_CACHED_PATTERNS = 512

/** A pattern compiled to run in time linear in the input, with the size of its program (the cost per character). */
export interface LinearPattern {
  /** True when the pattern matches somewhere in `input`, as `RegExp.prototype.test` (JSON Schema's patterns are not anchored). */
  test: (input: string) => boolean
  /** re2js's program size: the work per input character is at most proportional to it. */
  programSize: number
}

const cache = new Map<string, LinearPattern | UnsafePatternError>()

/**
 * The ECMAScript `u`-mode pattern `source` compiled by re2js, an RE2 port: it never backtracks, so a test
 * costs at most (input length × program size) steps whatever the pattern. Throws UnsafePatternError for a
 * pattern it cannot run that way (lookaround, backreferences, repeat counts over 1000, unknown properties) or
 * one longer than MAX_PATTERN_CHARS. `source` must be a valid `u`-mode pattern (parse it natively first).
 */
export function compileLinearPattern(source: string): LinearPattern {
  let entry = cache.get(source)
  if (entry) {
    cache.delete(source)
  }
  else {
    entry = compile(source)
    if (cache.size >= MAX_CACHED_PATTERNS) cache.delete(cache.keys().next().value!)
  }
  cache.set(source, entry)
  if (entry instanceof UnsafePatternError) throw entry
  return entry
}

function compile(source: string): LinearPattern | UnsafePatternError {
  if (source.length > MAX_PATTERN_CHARS) {
    return new UnsafePatternError({ pattern: source, reason: `it is ${source.length} characters long (at most ${MAX_PATTERN_CHARS})` })
  }
  try {
    const compiled = RE2JS.compile(ecmascriptToRe2(source))
    return { test: input => compiled.test(input), programSize: compiled.programSize() }
  }
  catch (error) {
    const reason = error instanceof PatternNotLinearError
      ? `${error.message}; patterns run in linear time`
      // re2js's own words: "invalid repeat count: `{1001}`", "invalid character class range: `\p{Foo}`"...
      : `the linear-time engine cannot compile it (${error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error)})`
    return new UnsafePatternError({ pattern: source, reason, cause: error })
  }
}
