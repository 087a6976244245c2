import { RE2JS } from 're2js'
import { UnsafePatternError } from '../../errors/unsafe-pattern-error'
import { ecmascriptToRe2, PatternNotLinearError } from './ecmascript-to-re2'

/**
 * Longest pattern compiled. Real ones (dates, ids, even RFC 5322 e-mail) stay under a few hundred characters;
 * compiling costs time and memory in proportion to the length, and RE2 refuses much larger programs anyway.
 */
export const MAX_PATTERN_CHARS = 4_096

/**
 * Compiled patterns kept, least recently used dropped first. Compiling costs 0.3–1 ms for an ordinary pattern,
 * far more than a test; refusals are kept too, so a refused pattern sent again is not translated again.
 */
const MAX_CACHED_PATTERNS = 256

/**
 * A compiled pattern is kept only while its DFA may have grown this much: re2js builds DFA states as it reads,
 * up to 8 MB per pattern, and 256 hostile patterns at 8 MB each would pin 2 GB. Estimated with re2js's own
 * figures (at most one state per character read, 150 bytes plus 8 per instruction each); a pattern over it is
 * dropped after the validation that used it and compiled again when next needed.
 */
const MAX_RETAINED_DFA_BYTES = 1024 * 1024

/** A pattern compiled to run in time linear in the input, with the size of its program (the cost per character). */
export interface LinearPattern {
  /** True when the pattern matches somewhere in `input`, as `RegExp.prototype.test` (JSON Schema's patterns are not anchored). */
  test: (input: string) => boolean
  /** re2js's program size: the work per input character is at most proportional to it. */
  programSize: number
  /** Characters tested so far: bounds the DFA states this pattern may hold. */
  charactersRead: number
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
    const pattern: LinearPattern = {
      test: (input) => {
        pattern.charactersRead += input.length + 1
        return compiled.test(input)
      },
      programSize: compiled.programSize(),
      charactersRead: 0,
    }
    return pattern
  }
  catch (error) {
    const reason = error instanceof PatternNotLinearError
      ? `${error.message}; patterns run in linear time`
      // re2js's own words: "invalid repeat count: `{1001}`", "invalid character class range: `\p{Foo}`"...
      : `the linear-time engine cannot compile it (${error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error)})`
    return new UnsafePatternError({ pattern: source, reason, cause: error })
  }
}

/** Drops `source`'s compiled pattern from the cache when its DFA may hold more than MAX_RETAINED_DFA_BYTES. */
export function releaseLinearPattern(source: string, pattern: LinearPattern): void {
  if (pattern.charactersRead * (150 + 8 * pattern.programSize) > MAX_RETAINED_DFA_BYTES && cache.get(source) === pattern) cache.delete(source)
}
