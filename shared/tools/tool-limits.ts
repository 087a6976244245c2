/**
 * Limits on what a model may hand the tool executor. The executor runs on the tab's main thread, so each limit
 * bounds how long one hostile tool call can freeze the page.
 */

/**
 * Longest arguments text accepted (UTF-16 characters, i.e. `string.length`), refused beyond without parsing.
 * Models write at most 8k–128k output tokens per turn (≈ 32–512 KB of text), so 2 MiB is 4× the largest
 * legitimate call while keeping parse and schema check of the worst case in the tens of milliseconds.
 * Stays above 1 MiB so a tool can still take a megabyte of text (a pasted document) in one argument.
 */
export const MAX_ARGUMENT_CHARS = 2 * 1024 * 1024

/**
 * Deepest nesting of objects and arrays accepted. JSON.parse with a reviver and @cfworker/json-schema both
 * recurse: in Node 20 the validator ran out of stack between 256 and 512 levels with a recursive `$ref` schema,
 * and other engines have smaller stacks. Real tool arguments are a handful of levels deep.
 */
export const MAX_ARGUMENT_DEPTH = 64

/**
 * Arguments up to this size get every schema problem counted; larger ones are checked only up to the first
 * problems (the verdict is the same). Collecting errors is the validator's slow part, about 5 µs per error, and
 * past ~65k errors its spread pushes overflow V8's stack: 128 KB of wrong items already costs half a second,
 * 64 KB at most a tenth of that on an idle laptop. A model needs the first problems, not a count of thousands.
 */
export const FULL_REPORT_MAX_CHARS = 64 * 1024

/** Issues described in full for the message; the others are only counted. */
export const MAX_DESCRIBED_ISSUES = 20
