import { parseJson } from '../security/parse-json'
import type { OutputUnit } from '@cfworker/json-schema'
import type { ToolInputIssue } from '../errors/invalid-tool-input-error'
import { formatInstancePath, joinPath } from './format-instance-path'

/** Keywords whose error only says "a child failed": cfworker always follows it with the child's own errors. */
const SUMMARY_KEYWORDS = new Set([
  'properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties', 'propertyNames',
  'items', 'prefixItems', 'additionalItems', 'unevaluatedItems', 'allOf', '$ref', '$recursiveRef', '$dynamicRef',
  'dependentSchemas', 'dependencies', 'if', 'then', 'else',
])

/** Alternatives: their children are each one way to fail, so the parent speaks for them. */
const ALTERNATIVE_KEYWORDS = new Set(['anyOf', 'oneOf', 'not'])

/** True for an error that only says a child failed (`Property "a" does not match schema.`). */
export function isSummaryError(error: OutputUnit): boolean {
  if (!SUMMARY_KEYWORDS.has(error.keyword)) return false
  // `dependencies` with a list of names (draft 7) fails by itself: 'Instance has "a" but does not have "b".'
  return error.keyword !== 'dependencies' || error.error.endsWith('dependant schema.')
}

/** True for an anyOf/oneOf/not error, which speaks for the errors of its branches. */
export function isAlternativeError(error: OutputUnit): boolean {
  return ALTERNATIVE_KEYWORDS.has(error.keyword)
}

/**
 * The error at `position` as a short issue. cfworker lists errors parent first, each followed by the errors of
 * its subschemas; an anyOf/oneOf error reads only its own branches, right after it, so describing one error
 * costs the same whatever the length of the list.
 */
export function describeSchemaError(errors: OutputUnit[], position: number): ToolInputIssue {
  const error = errors[position]!
  const path = formatInstancePath(error.instanceLocation)
  const text = error.error
  switch (error.keyword) {
    case 'required': {
      const key = /"(.*)"\.$/.exec(text)?.[1]
      return key === undefined ? { path, message: 'missing a required property' } : { path: joinPath(path, key), message: 'required' }
    }
    case 'dependentRequired':
    case 'dependencies': {
      const match = /has "(.*)" but does not have "(.*)"\.$/.exec(text)
      if (match) return { path: joinPath(path, match[2]!), message: `required when "${match[1]}" is present` }
      return { path, message: 'does not match the schema required by its other properties' }
    }
    case 'type': {
      const types = [...text.matchAll(/"([a-z]+)"/g)].slice(1).map(match => match[1])
      return { path, message: `expected ${types.join(' or ')}` }
    }
    case 'enum': {
      const values = parseJsonTail(text, 'Instance does not match any of ')
      return { path, message: Array.isArray(values) ? `must be one of ${values.map(value => JSON.stringify(value)).join(', ')}` : 'is not an allowed value' }
    }
    case 'const': {
      const raw = text.slice('Instance does not match '.length, -1)
      return { path, message: `must be ${raw}` }
    }
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum':
      return { path, message: describeBound(error.keyword, text) }
    case 'multipleOf':
      return { path, message: `must be a multiple of ${/multiple of (.*)\.$/.exec(text)?.[1] ?? '?'}` }
    case 'minLength':
      return { path, message: `must be at least ${limitOf(text)} characters` }
    case 'maxLength':
      return { path, message: `must be at most ${limitOf(text)} characters` }
    case 'minItems':
      return { path, message: `must have at least ${limitOf(text)} items` }
    case 'maxItems':
      return { path, message: `must have at most ${limitOf(text)} items` }
    case 'minProperties':
      return { path, message: `must have at least ${/at least (\d+)/.exec(text)?.[1] ?? '?'} properties` }
    case 'maxProperties':
      return { path, message: 'has too many properties' }
    case 'uniqueItems':
      return { path, message: 'must not contain duplicate items' }
    case 'pattern':
      return { path, message: 'does not match the required pattern' }
    case 'format':
      return { path, message: `must be a valid ${/format "(.*)"/.exec(text)?.[1] ?? 'value'}` }
    case 'anyOf':
    case 'oneOf':
      return { path, message: describeAlternatives(errors, position) }
    case 'not':
      return { path, message: 'matches a schema it must not match' }
    case 'false':
      return { path, message: 'is not allowed' }
    case 'contains':
    case 'minContains':
    case 'maxContains':
      return { path, message: text.replace(/\.$/, '') }
    default:
      return { path, message: text.replace(/\.$/, '') }
  }
}

function describeAlternatives(errors: OutputUnit[], position: number): string {
  const error = errors[position]!
  const matches = /\((\d+) matches\)/.exec(error.error)?.[1]
  if (error.keyword === 'oneOf' && matches && matches !== '0') return 'matches more than one allowed form'
  const branchPrefix = `${error.keywordLocation}/`
  const types = new Set<string>()
  for (let index = position + 1; index < errors.length && errors[index]!.keywordLocation.startsWith(branchPrefix); index++) {
    const child = errors[index]!
    // Any other kind of failure in a branch: listing types would mislead. Stops at the first one.
    if (child.keyword !== 'type' || child.instanceLocation !== error.instanceLocation) return 'does not match any allowed form'
    for (const match of [...child.error.matchAll(/"([a-z]+)"/g)].slice(1)) types.add(match[1]!)
  }
  return types.size > 0 ? `expected ${[...types].join(' or ')}` : 'does not match any allowed form'
}

function describeBound(keyword: string, text: string): string {
  const value = /than (?:or equal to )?\s*(.*)\.$/.exec(text)?.[1] ?? '?'
  const orEqual = text.includes('or equal to')
  if (keyword === 'minimum') return `must be ${orEqual ? '>' : '>='} ${value}`
  if (keyword === 'maximum') return `must be ${orEqual ? '<' : '<='} ${value}`
  return `must be ${keyword === 'exclusiveMinimum' ? '>' : '<'} ${value}`
}

function limitOf(text: string): string {
  return /[<>] (\d+)\)/.exec(text)?.[1] ?? '?'
}

function parseJsonTail(text: string, prefix: string): unknown {
  if (!text.startsWith(prefix)) return undefined
  try {
    return parseJson(text.slice(prefix.length, -1))
  }
  catch {
    return undefined
  }
}
