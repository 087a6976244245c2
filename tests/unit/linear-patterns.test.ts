// JSON-Schema patterns from outside (plugins, MCP servers, a client's browser tools) against hostile arguments:
// checked in linear time, or refused with a message; never a thread held by backtracking.
import { describe, expect, it } from 'vitest'
import { findSchemaProblem } from '../../shared/tools/definition/json-schema-structure'
import { InvalidToolInputError } from '#shared/errors/invalid-tool-input-error'
import { validateToolArguments } from '#shared/tools/validate-tool-arguments'
import { compileLinearPattern, MAX_PATTERN_CHARS, releaseLinearPattern } from '#shared/tools/patterns/linear-pattern'

/** The probe of issue 20: a client's browser tool whose pattern backtracks exponentially on `aaa…a!`. */
const PROBE_PATTERN = '^((a+)+|hi-mcp)$'
const probeSchema = { type: 'object', properties: { q: { type: 'string', pattern: PROBE_PATTERN } } }

function check(schema: Record<string, unknown>, value: unknown) {
  return validateToolArguments('probe', schema, value)
}

/** The fastest of a few runs: the machine's load only ever adds time, so the minimum is the cost itself. */
function fastestMs(run: () => void, runs = 5): number {
  let best = Number.POSITIVE_INFINITY
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    run()
    best = Math.min(best, performance.now() - start)
  }
  return best
}

function messageOf(result: ReturnType<typeof validateToolArguments>): string {
  expect(result.valid).toBe(false)
  return result.valid ? '' : result.error.message
}

describe('patterns from outside run in linear time', () => {
  it('gives the probe its right verdicts: 28 a\'s and a bang are refused, what the pattern allows passes', () => {
    expect(messageOf(check(probeSchema, { q: `${'a'.repeat(28)}!` }))).toBe('invalid arguments for "probe": q: does not match the required pattern')
    expect(check(probeSchema, { q: 'hi-mcp' })).toEqual({ valid: true })
    expect(check(probeSchema, { q: 'a'.repeat(28) })).toEqual({ valid: true })
    expect(check(probeSchema, { q: 'hi-mcp!' }).valid).toBe(false)
  })

  it('pays no more for 26 a\'s than for 20 (a backtracking engine pays 64 times more)', () => {
    const cost = (count: number) => fastestMs(() => check(probeSchema, { q: `${'a'.repeat(count)}!` }))
    cost(20)
    const twenty = cost(20)
    const twentySix = cost(26)
    expect(twentySix).toBeLessThan(8 * twenty + 1)
  })

  it('grows no faster than the input: 100,000 a\'s cost at most about 100 times 1,000', () => {
    expect(messageOf(check(probeSchema, { q: `${'a'.repeat(100_000)}!` }))).toMatch(/q: does not match the required pattern/)
    const cost = (count: number) => fastestMs(() => check(probeSchema, { q: `${'a'.repeat(count)}!` }))
    cost(1_000)
    const small = cost(1_000)
    const large = cost(100_000)
    expect(large).toBeLessThan(100 * 5 * small + 5)
  })

  it('checks patternProperties keys the same way', () => {
    const schema = {
      type: 'object',
      patternProperties: { [PROBE_PATTERN]: { type: 'number' } },
      additionalProperties: false,
    }
    expect(check(schema, { aaaa: 1, 'hi-mcp': 2 })).toEqual({ valid: true })
    expect(messageOf(check(schema, { [`${'a'.repeat(10_000)}!`]: 1 }))).toMatch(/not allowed|additional/i)
    expect(check(schema, { aaaa: 'one' }).valid).toBe(false)
  })
})

describe('patterns that need backtracking', () => {
  const refused: Array<[string, RegExp]> = [
    ['^(?=.*\\d)[a-z\\d]+$', /lookahead/],
    ['^(?!admin$)\\w+$', /lookahead/],
    ['(?<=\\$)\\d+', /lookbehind/],
    ['(?<!x)y', /lookbehind/],
    ['^(a+)\\1$', /backreference \\1/],
    ['^(?<word>\\w+) \\k<word>$', /backreference \\k/],
  ]

  it.each(refused)('refuses %s with a message naming the pattern and the reason, instead of throwing', (pattern, reason) => {
    const result = check({ type: 'object', properties: { q: { type: 'string', pattern } } }, { q: 'abc1' })
    expect(result.valid).toBe(false)
    if (result.valid) return
    expect(result.error).toBeInstanceOf(InvalidToolInputError)
    expect(result.error.message).toContain(`pattern ${JSON.stringify(pattern)} is refused`)
    expect(result.error.message).toMatch(reason)
  })

  it('refuses them as patternProperties keys too', () => {
    const schema = { type: 'object', patternProperties: { '^(?!_)': { type: 'string' } } }
    expect(messageOf(check(schema, { name: 'x' }))).toMatch(/"\^\(\?!_\)" is refused: lookahead/)
  })

  it('still lets a tool with such a pattern register: only its calls are refused', () => {
    expect(findSchemaProblem({ type: 'object', properties: { q: { type: 'string', pattern: '^(?=a)a+$' } } })).toBeNull()
  })

  it('refuses a pattern longer than the cap and a repeat count RE2 does not take, with the reason', () => {
    const long = `^${'a?'.repeat(MAX_PATTERN_CHARS)}$`
    expect(messageOf(check({ type: 'object', properties: { q: { type: 'string', pattern: long } } }, { q: 'a' }))).toMatch(/is refused: it is 8194 characters long \(at most 4096\)/)
    expect(messageOf(check({ type: 'object', properties: { q: { type: 'string', pattern: '^.{0,5000}$' } } }, { q: 'a' }))).toMatch(/invalid repeat count/)
  })

  it('refuses a check whose work would exceed the budget instead of running it', () => {
    // re2js's DFA thrashes on this one and falls back to its slower simulation: 1 MB would take seconds.
    const schema = { type: 'object', properties: { q: { type: 'string', pattern: '(a|b)*a(a|b){15}$' } } }
    const letters = Array.from({ length: 1_000_000 }, (_, index) => ((index * 7919) % 13 < 6 ? 'a' : 'b')).join('')
    expect(messageOf(check(schema, { q: `${letters}c` }))).toMatch(/would take too long/)
    expect(check(schema, { q: `${letters.slice(0, 2_000)}a${'b'.repeat(15)}` })).toEqual({ valid: true })
  })

  it('keeps the native RegExp outside of a check, also after a refusal', () => {
    const native = RegExp
    check({ type: 'object', properties: { q: { type: 'string', pattern: '(?=a)' } } }, { q: 'a' })
    check(probeSchema, { q: 'aa!' })
    expect(globalThis.RegExp).toBe(native)
    expect(new RegExp('^(a)\\1$', 'u').test('aa')).toBe(true)
  })

  it('keeps refusing an invalid pattern as before, as a schema that cannot be used', () => {
    expect(messageOf(check({ type: 'object', properties: { q: { type: 'string', pattern: '(' } } }, { q: 'a' }))).toMatch(/parameter schema cannot be used: Invalid regular expression/)
  })
})

describe('the compiled-pattern cache', () => {
  it('keeps a pattern that read little, and drops one whose DFA may have grown past its memory bound', () => {
    const small = compileLinearPattern('^[a-z]+-cache-small$')
    small.test('abc-cache-small')
    releaseLinearPattern('^[a-z]+-cache-small$', small)
    expect(compileLinearPattern('^[a-z]+-cache-small$')).toBe(small)

    const large = compileLinearPattern('(a|b)*a(a|b){12}-cache-large$')
    large.test('ab'.repeat(50_000))
    releaseLinearPattern('(a|b)*a(a|b){12}-cache-large$', large)
    const again = compileLinearPattern('(a|b)*a(a|b){12}-cache-large$')
    expect(again).not.toBe(large)
    expect(again.test(`b${'a'.repeat(13)}-cache-large`)).toBe(true)
  })
})
