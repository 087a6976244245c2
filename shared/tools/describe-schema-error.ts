import type { OutputUnit } from '@cfworker/json-schema'
import type { ToolInputIssue } from '../errors/invalid-tool-input-error'

/** Keywords whose error only says "a child failed": dropped when a child error says what. */
const SUMMARY_KEYWORDS = new Set([
  'properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties', 'propertyNames',
  'items', 'prefixItems', 'additionalItems', 'unevaluatedItems', 'allOf', '$ref', '$recursiveRef', '$dynamicRef',
  'dependentSchemas', 'dependencies', 'if', 'then', 'else',
])

/** Alternatives: their children are each one way to fail, so the parent speaks for them. */
const ALTERNATIVE_KEYWORDS = new Set(['anyOf', 'oneOf', 'not'])

/** True when `error` is a parent summary and a later error at or below its instance location explains it. */
export function isExplainedSummary(error: OutputUnit, position: number, errors: OutputUnit[]): boolean {
  if (!SUMMARY_KEYWORDS.has(error.keyword)) return false
  return errors.some((other, i) => i > position && isAtOrBelow(other.instanceLocation, error.instanceLocation)
    && !SUMMARY_KEYWORDS.has(other.keyword))
}

/** One cfworker error as a short issue, or undefined when an enclosing anyOf/oneOf/not already covers it. */
export function describeSchemaError(error: OutputUnit, errors: OutputUnit[]): ToolInputIssue | undefined {
  if (errors.some(other => other !== error && ALTERNATIVE_KEYWORDS.has(other.keyword)
    && error.keywordLocation.startsWith(`${other.keywordLocation}/`))) return undefined
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
      return { path, message: describeAlternatives(error, errors) }
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

function describeAlternatives(error: OutputUnit, errors: OutputUnit[]): string {
  const matches = /\((\d+) matches\)/.exec(error.error)?.[1]
  if (error.keyword === 'oneOf' && matches && matches !== '0') return 'matches more than one allowed form'
  const children = errors.filter(other => other.keywordLocation.startsWith(`${error.keywordLocation}/`))
  const sameLevelTypes = children.length > 0 && children.every(child => child.keyword === 'type' && child.instanceLocation === error.instanceLocation)
  if (sameLevelTypes) {
    const types = [...new Set(children.flatMap(child => [...child.error.matchAll(/"([a-z]+)"/g)].slice(1).map(match => match[1])))]
    return `expected ${types.join(' or ')}`
  }
  return 'does not match any allowed form'
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
    return JSON.parse(text.slice(prefix.length, -1))
  }
  catch {
    return undefined
  }
}

function isAtOrBelow(location: string, ancestor: string): boolean {
  return location === ancestor || location.startsWith(`${ancestor}/`)
}

/** `#/items/2/name` → `items[2].name`; `#` → '' (the arguments as a whole). */
export function formatInstancePath(location: string): string {
  const segments = location.replace(/^#\/?/, '').split('/').filter(segment => segment !== '')
  return segments.reduce<string>((path, segment) => {
    const key = decodeSegment(segment)
    return /^\d+$/.test(key) ? `${path}[${key}]` : joinPath(path, key)
  }, '')
}

function joinPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key
}

function decodeSegment(segment: string): string {
  let decoded = segment
  try {
    decoded = decodeURI(segment)
  }
  catch {}
  return decoded.replace(/%23/g, '#').replace(/~1/g, '/').replace(/~0/g, '~')
}
