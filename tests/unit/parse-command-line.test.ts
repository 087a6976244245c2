import { describe, expect, it } from 'vitest'
import type { InputField } from '#shared/types/rich-tool-definition'
import { MAX_COMMAND_LINE_LENGTH, parseCommandArguments, splitCommandLine } from '#shared/tools/rich-definition/parse-command-line'
import { measureWork } from '~~/tests/unit/helpers/measure-work'

const field = (name: string, type: InputField['type'], extra: Partial<InputField> = {}): InputField => ({ name, type, required: false, ...extra })

describe('splitCommandLine', () => {
  it('splits a slash command from the rest of the line', () => {
    expect(splitCommandLine('/calc 12*7')).toEqual({ command: '/calc', rest: '12*7' })
    expect(splitCommandLine('  /CALC   2 + 2  ')).toEqual({ command: '/calc', rest: '2 + 2' })
    expect(splitCommandLine('/time')).toEqual({ command: '/time', rest: '' })
  })

  it('leaves ordinary messages alone', () => {
    expect(splitCommandLine('what is 12*7?')).toBeUndefined()
    expect(splitCommandLine('/ nothing')).toBeUndefined()
    expect(splitCommandLine('/usr/bin/env is a path')).toBeUndefined()
  })
})

describe('parseCommandArguments', () => {
  const calc = { expression: field('expression', 'string', { required: true }) }
  const weather = {
    city: field('city', 'string', { required: true }),
    days: field('days', 'number', { default: 1 }),
    detailed: field('detailed', 'boolean'),
    units: field('units', 'string', { enum: ['metric', 'imperial'] }),
  }

  it('puts the rest of the line into the first required string input', () => {
    expect(parseCommandArguments('12*7', calc)).toEqual({ args: { expression: '12*7' }, missing: [], errors: {} })
    // an '=' inside the expression is not a pair unless its key names an input
    expect(parseCommandArguments('x=2; x^3', calc).args).toEqual({ expression: 'x=2; x^3' })
  })

  it('reads key=value pairs with quotes and types, and fills defaults', () => {
    expect(parseCommandArguments('city="New York" detailed=yes', weather)).toEqual({
      args: { city: 'New York', detailed: true, days: 1 }, missing: [], errors: {},
    })
    expect(parseCommandArguments('Lisbon days=3', weather).args).toEqual({ city: 'Lisbon', days: 3 })
  })

  it('lists required inputs still missing, for the form to ask', () => {
    expect(parseCommandArguments('', weather)).toEqual({ args: { days: 1 }, missing: ['city'], errors: {} })
    expect(parseCommandArguments('', calc).missing).toEqual(['expression'])
  })

  it('names values that do not fit their input', () => {
    const { errors } = parseCommandArguments('Paris days=many units=kelvin detailed=maybe', weather)
    expect(errors).toEqual({
      days: 'days must be a number (got "many")',
      units: 'units must be one of metric, imperial (got "kelvin")',
      detailed: 'detailed must be true or false (got "maybe")',
    })
  })

  it('refuses text a command without a text input cannot take', () => {
    const { errors } = parseCommandArguments('hello', { count: field('count', 'number') })
    expect(errors.count).toBe('count must be a number (got "hello")')
    expect(parseCommandArguments('hello', {}).errors._).toBe('"hello" is not a key=value pair this command takes')
  })

  it('never reaches Object.prototype through a key named __proto__', () => {
    const { args } = parseCommandArguments('__proto__=1 constructor=2', calc)
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype)
    expect(args).toEqual({ expression: '__proto__=1 constructor=2' })
  })
})

describe('parseCommandArguments on hostile lines', () => {
  const inputs = { a: field('a', 'string', { required: true }), b: field('b', 'number') }
  const work = (line: (n: number) => string, n: number) => measureWork(() => parseCommandArguments(line(n), inputs)).work

  it.each([
    ['unterminated quotes', (n: number) => ' a="x'.repeat(n)],
    ['escapes', (n: number) => ` a="${'\\\\"'.repeat(n)}`],
    ['pairs without values', (n: number) => ' b='.repeat(n)],
    ['one long word', (n: number) => `a=${'x'.repeat(n)}`],
  ])('does linear work for %s', (_name, line) => {
    const small = work(line, 400)
    expect(work(line, 1600)).toBeLessThanOrEqual(small * 5)
  })

  it('reads at most MAX_COMMAND_LINE_LENGTH characters', () => {
    const { args } = parseCommandArguments('x'.repeat(MAX_COMMAND_LINE_LENGTH * 2), inputs)
    expect((args.a as string).length).toBe(MAX_COMMAND_LINE_LENGTH)
  })
})
