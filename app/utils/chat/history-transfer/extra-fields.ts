/**
 * Fields of a thread or a row that this version does not know (written by a later one) are carried as they are,
 * within bounds: a handful of keys, a bounded depth, strings no longer than a message may be.
 */
import { isRecord } from '#shared/types/is-record'
import { HISTORY_IMPORT_MAX_EXTRA_DEPTH, HISTORY_IMPORT_MAX_EXTRA_KEYS, HISTORY_IMPORT_MAX_STRING_CHARS } from './history-limits'

/** The problems with `record`'s keys outside `known`, as `at.key: …` lines. */
export function extraFieldProblems(record: Record<string, unknown>, known: ReadonlySet<string>, at: string): string[] {
  const extra = Object.keys(record).filter(key => !known.has(key))
  if (extra.length > HISTORY_IMPORT_MAX_EXTRA_KEYS) return [`${at}: ${extra.length} unknown fields; at most ${HISTORY_IMPORT_MAX_EXTRA_KEYS} are carried`]
  const problems: string[] = []
  for (const key of extra) {
    const problem = boundedValueProblem(record[key])
    if (problem) problems.push(`${at}.${key.slice(0, 60)}: ${problem}`)
  }
  return problems
}

/** Why a JSON value is out of bounds (nested too deep, a string too long), or undefined. Iterative. */
function boundedValueProblem(value: unknown): string | undefined {
  const stack: { value: unknown, depth: number }[] = [{ value, depth: 1 }]
  let visited = 0
  while (stack.length) {
    const { value: current, depth } = stack.pop()!
    if (++visited > 100_000) return 'holds too many values'
    if (typeof current === 'string' && current.length > HISTORY_IMPORT_MAX_STRING_CHARS) return `a text of ${current.length.toLocaleString('en')} characters; at most ${HISTORY_IMPORT_MAX_STRING_CHARS.toLocaleString('en')} are accepted`
    if (Array.isArray(current) || isRecord(current)) {
      if (depth > HISTORY_IMPORT_MAX_EXTRA_DEPTH) return `nested more than ${HISTORY_IMPORT_MAX_EXTRA_DEPTH} levels deep`
      for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 })
    }
  }
  return undefined
}
