// A deterministic measure of how much work a call does, so a test can show that a matcher is linear (work at 4n
// is at most 4 times the work at n) without timing anything.
//
// While `measureWork(run)` runs, `RegExp.prototype.exec` is replaced. Every RegExp operation goes through it
// (split, replace, test, match, matchAll and search all call `exec` once it is not the built-in one), so the code
// under test needs no change: each call is run by the counting interpreter of backtracking-regex.ts and checked
// against V8's own answer. The string built-ins that scan (toLowerCase, toUpperCase, indexOf, includes, the trims,
// JSON.parse/stringify) add the characters they read.
import { compileRegex, matchAt } from './backtracking-regex'
import type { StepMeter } from './backtracking-regex'

const nativeExec = RegExp.prototype.exec
const nativeStringify = JSON.stringify
const meter: StepMeter = { steps: 0, budget: Infinity }
/** True inside the interpreter: its own string and RegExp calls are bookkeeping, neither counted nor interpreted. */
let busy = false

/** `RegExp.prototype.exec`, interpreted and counted, with V8's answer as the check. */
function countedExec(this: RegExp, input: string): RegExpExecArray | null {
  if (busy) return nativeExec.call(this, input)
  busy = true
  try {
    return interpretedExec(this, String(input))
  }
  finally {
    busy = false
  }
}

function interpretedExec(regexp: RegExp, text: string): RegExpExecArray | null {
  const { global, sticky, unicode } = regexp
  const from = global || sticky ? Math.max(0, Math.floor(Number(regexp.lastIndex)) || 0) : 0
  const native = new RegExp(regexp.source, regexp.flags)
  native.lastIndex = regexp.lastIndex

  const pattern = compileRegex(regexp.source, regexp.flags)
  let result: RegExpExecArray | null = null
  for (let start = from; start <= text.length; start += unicode && (text.codePointAt(start) ?? 0) > 0xFFFF ? 2 : 1) {
    const slots = matchAt(pattern, text, start, meter)
    if (slots) {
      const captures = Array.from({ length: pattern.groups + 1 }, (_, group) =>
        (slots[group * 2 + 1]! >= 0 && slots[group * 2]! >= 0 ? text.slice(slots[group * 2], slots[group * 2 + 1]) : undefined))
      result = Object.assign(captures, { index: start, input: text, groups: undefined }) as unknown as RegExpExecArray
      break
    }
    if (sticky || anchoredAtStart(regexp)) break
  }
  if (global || sticky) regexp.lastIndex = result ? result.index + result[0].length : 0

  // V8 second: a runaway pattern stops on the step budget before V8 would spend minutes on it.
  const expected = nativeExec.call(native, text)
  const [ours, theirs] = [result, expected].map(match => nativeStringify(match && [...match, match.index]))
  if (ours !== theirs) throw new Error(`the counting interpreter disagrees with V8 on /${regexp.source}/${regexp.flags} at ${from}: ${ours} vs ${theirs}`)
  return result
}

/**
 * True for a pattern that can only match at the start of the text (`^…` outside multiline mode, no top-level `|`):
 * V8 tries it at the first position only, so the interpreter does too.
 */
function anchoredAtStart(regexp: RegExp): boolean {
  const { source, multiline } = regexp
  if (multiline || !source.startsWith('^')) return false
  let depth = 0
  let inClass = false
  for (let index = 1; index < source.length; index++) {
    const char = source[index]
    if (char === '\\') index++
    else if (inClass) inClass = char !== ']'
    else if (char === '[') inClass = true
    else if (char === '(') depth++
    else if (char === ')') depth--
    else if (char === '|' && depth === 0) return false
  }
  return true
}

/** Options of `measureWork`. */
export interface MeasureWorkOptions {
  /** Work after which the measured call is stopped with an error. @default 20_000_000 */
  maxWork?: number
}

/**
 * Runs `run` and returns its result with the work it did: regular-expression steps plus the characters that
 * scanning string built-ins read. Deterministic: the same call always gives the same number.
 */
export function measureWork<T>(run: () => T, options: MeasureWorkOptions = {}): { result: T, work: number } {
  const uninstall = installMeter(options)
  try {
    const result = run()
    return { result, work: meter.steps }
  }
  finally {
    uninstall()
  }
}

/**
 * {@link measureWork} for an async run (a stream reader). The meter stays installed until the run settles, so
 * nothing else may run meanwhile: await it before starting another.
 */
export async function measureWorkAsync<T>(run: () => Promise<T>, options: MeasureWorkOptions = {}): Promise<{ result: T, work: number }> {
  const uninstall = installMeter(options)
  try {
    const result = await run()
    return { result, work: meter.steps }
  }
  finally {
    uninstall()
  }
}

function installMeter(options: MeasureWorkOptions): () => void {
  const { maxWork = 20_000_000 } = options
  const { toLowerCase, toUpperCase, indexOf, includes, trim, trimStart, trimEnd } = String.prototype
  const { parse, stringify } = JSON
  const proto = String.prototype as unknown as Record<string, unknown>
  RegExp.prototype.exec = countedExec
  const count = (characters: number) => {
    if (!busy) meter.steps += characters
  }
  proto.toLowerCase = function (this: string) {
    count(this.length)
    return toLowerCase.call(this)
  }
  proto.toUpperCase = function (this: string) {
    count(this.length)
    return toUpperCase.call(this)
  }
  proto.indexOf = function (this: string, search: string, from?: number) {
    const found = indexOf.call(this, search, from)
    count((found === -1 ? this.length : found + String(search).length) - Math.max(0, from ?? 0))
    return found
  }
  proto.includes = function (this: string, search: string, from?: number) {
    count(this.length)
    return includes.call(this, search, from)
  }
  // The trims read the white space they remove and one character more at each end they trim.
  for (const [name, native] of [['trim', trim], ['trimStart', trimStart], ['trimEnd', trimEnd]] as const) {
    proto[name] = function (this: string) {
      const trimmed = native.call(this)
      count(this.length - trimmed.length + 1)
      return trimmed
    }
  }
  JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
    count(String(text).length)
    return parse(text, reviver)
  }
  JSON.stringify = ((value: unknown, ...rest: never[]) => {
    const text = stringify(value, ...rest)
    count(text?.length ?? 0)
    return text
  }) as typeof JSON.stringify
  meter.steps = 0
  meter.budget = maxWork
  return () => {
    meter.budget = Infinity
    RegExp.prototype.exec = nativeExec
    Object.assign(proto, { toLowerCase, toUpperCase, indexOf, includes, trim, trimStart, trimEnd })
    Object.assign(JSON, { parse, stringify })
  }
}
