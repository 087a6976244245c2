// JSON-Schema `format` checks against long hostile strings: cfworker's regexes run natively, so each must stay
// linear. Its `url` did not (exponential in the host); ours is the same language without the traps.
import { format } from '@cfworker/json-schema'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { validateToolArguments } from '#shared/tools/validate-tool-arguments'
import { installBoundedFormats } from '#shared/tools/patterns/bounded-formats'

// Taken before any validation installs the bounded formats: the reference for the verdicts.
const cfworkerUrl = format.url!

function fastestMs(run: () => void, runs = 3): number {
  let best = Number.POSITIVE_INFINITY
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    run()
    best = Math.min(best, performance.now() - start)
  }
  return best
}

const urlSchema = { type: 'object', properties: { link: { type: 'string', format: 'url' } } }

/** Shapes aimed at the quantifiers of cfworker's format regexes (hosts, labels, userinfo, segments, digits). */
const HOSTILE: Record<string, (length: number) => string> = {
  'letters then a bang': length => `http://${'a'.repeat(length)}!`,
  'hyphenated labels': length => `http://${'a-'.repeat(length / 2)}!`,
  'dotted labels': length => `http://${'a.'.repeat(length / 2)}!`,
  'colons, no at sign': length => `http://${'a:'.repeat(length / 2)} `,
  'slashes': length => `a:${'/'.repeat(length)} `,
  'percent escapes': length => `a:${'%00'.repeat(length / 3)} `,
  'digits': length => `P${'1'.repeat(length)}X`,
  'hex groups': length => `${'1:'.repeat(length / 2)}x`,
  'template braces': length => `{${'a.'.repeat(length / 2)}!`,
  'local part': length => `${'a'.repeat(length)}@${'a'.repeat(10)}!`,
}

describe('format checks on hostile strings', () => {
  it('refuses `http://aaa…a!` as a url without backtracking: 26 letters cost what 20 do', () => {
    const cost = (count: number) => fastestMs(() => validateToolArguments('fetch', urlSchema, { link: `http://${'a'.repeat(count)}!` }))
    expect(validateToolArguments('fetch', urlSchema, { link: `http://${'a'.repeat(26)}!` }).valid).toBe(false)
    cost(20)
    const twenty = cost(20)
    expect(cost(26)).toBeLessThan(8 * twenty + 1)
  })

  it('gives cfworker\'s url verdicts on short strings, where its regex is still quick', () => {
    installBoundedFormats()
    expect(format.url).not.toBe(cfworkerUrl)
    const pieces = fc.constantFrom('http://', 'https://', 'ftp://', 'a', 'b', '-', '.', ':', '@', '/', '1', '0', '25', '10.', '172.16', 'é', '%', '?', ' ', 'com', 'co')
    fc.assert(fc.property(fc.array(pieces, { maxLength: 10 }), (parts) => {
      const input = parts.join('')
      expect(format.url!(input), JSON.stringify(input)).toBe(cfworkerUrl(input))
    }), { numRuns: 5_000 })
    for (const input of ['http://foo.com/blah_blah', 'http://userid:password@example.com:8080', 'http://142.42.1.1/', 'http://10.1.1.1', 'http://-a.b.co', 'http://➡.ws/䨹']) {
      expect(format.url!(input), input).toBe(cfworkerUrl(input))
    }
  })

  it.each(Object.keys(format))('checks %s in time that grows no faster than the input (100 KB vs 10 KB)', (name) => {
    installBoundedFormats()
    const check = format[name]!
    for (const [shape, make] of Object.entries(HOSTILE)) {
      // Too short for an exponential trap to stay quiet: 30 characters took cfworker's url 8 s. The best of two
      // runs, and a bound far under 8 s, so that a loaded machine's pause (a first compile, a GC) is not a verdict.
      const tiny = fastestMs(() => check(make(30)), 2)
      expect(tiny, `${name}, ${shape}, 30 characters`).toBeLessThan(1_500)
      const small = fastestMs(() => check(make(10_000)))
      const large = fastestMs(() => check(make(100_000)))
      expect(large, `${name}, ${shape}`).toBeLessThan(10 * 5 * small + 5)
    }
  })
})
