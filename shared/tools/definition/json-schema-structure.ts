import { isRecord } from '../../types/is-record'
/**
 * A structural check of a JSON Schema: every keyword we know has a value of the right kind, recursively.
 * Unknown keywords (`optional`, `x-...`) are allowed, as JSON Schema says. This is not meta-schema
 * validation of every rule, but it catches what breaks providers and validators, and names the place.
 */

/** A problem found in a schema: where (`properties.city.type`) and what. */
export interface SchemaProblem {
  path: string
  problem: string
}

const SIMPLE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'])
const SCHEMA_KEYWORDS = ['additionalProperties', 'additionalItems', 'contains', 'not', 'if', 'then', 'else',
  'propertyNames', 'unevaluatedProperties', 'unevaluatedItems']
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']
const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems']
const COUNT_KEYWORDS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties',
  'minContains', 'maxContains']
const STRING_KEYWORDS = ['title', 'description', 'format', '$id', '$ref', '$schema', '$comment', '$anchor']
/** Deeper than this is a mistake (or a cycle), not a tool schema. */
const MAX_DEPTH = 64

/** Describe a value's JSON kind for messages: `string`, `array`, `null`... */
export function describeJsonKind(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/** Returns the first problem found in `schema`, or null when it is structurally a valid JSON Schema. */
export function findSchemaProblem(schema: unknown, path = ''): SchemaProblem | null {
  return checkSchema(schema, path, 0)
}

function at(path: string, key: string): string {
  return path ? `${path}.${key}` : key
}

function checkSchema(schema: unknown, path: string, depth: number): SchemaProblem | null {
  if (typeof schema === 'boolean') return null
  if (!isRecord(schema)) {
    return { path, problem: `must be a schema object or boolean (got ${describeJsonKind(schema)})` }
  }
  if (depth > MAX_DEPTH) return { path, problem: `is nested more than ${MAX_DEPTH} levels deep` }

  const type = schema.type
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type]
    if (types.length === 0) return { path: at(path, 'type'), problem: 'must not be an empty array' }
    for (const entry of types) {
      if (typeof entry !== 'string' || !SIMPLE_TYPES.has(entry)) {
        return { path: at(path, 'type'), problem: `must be one of ${[...SIMPLE_TYPES].join(', ')} (got ${JSON.stringify(entry)})` }
      }
    }
  }
  for (const key of SCHEMA_KEYWORDS) {
    if (key in schema) {
      const problem = checkSchema(schema[key], at(path, key), depth + 1)
      if (problem) return problem
    }
  }
  for (const key of SCHEMA_MAP_KEYWORDS) {
    if (!(key in schema)) continue
    const map = schema[key]
    if (!isRecord(map)) return { path: at(path, key), problem: `must be an object of schemas (got ${describeJsonKind(map)})` }
    for (const [name, sub] of Object.entries(map)) {
      const problem = checkSchema(sub, at(at(path, key), name), depth + 1)
      if (problem) return problem
    }
  }
  for (const key of SCHEMA_LIST_KEYWORDS) {
    if (!(key in schema)) continue
    const problem = checkSchemaList(schema[key], at(path, key), depth)
    if (problem) return problem
  }
  if ('items' in schema) {
    const items = schema.items
    const problem = Array.isArray(items)
      ? checkSchemaList(items, at(path, 'items'), depth)
      : checkSchema(items, at(path, 'items'), depth + 1)
    if (problem) return problem
  }
  return checkValueKeywords(schema, path)
}

function checkSchemaList(list: unknown, path: string, depth: number): SchemaProblem | null {
  if (!Array.isArray(list) || list.length === 0) {
    return { path, problem: `must be a non-empty array of schemas (got ${describeJsonKind(list)})` }
  }
  for (const [index, sub] of list.entries()) {
    const problem = checkSchema(sub, `${path}[${index}]`, depth + 1)
    if (problem) return problem
  }
  return null
}

function checkValueKeywords(schema: Record<string, unknown>, path: string): SchemaProblem | null {
  const required = schema.required
  if (required !== undefined && (!Array.isArray(required) || required.some(entry => typeof entry !== 'string'))) {
    return { path: at(path, 'required'), problem: `must be an array of property names (got ${describeRequired(required)})` }
  }
  if ('enum' in schema && !Array.isArray(schema.enum)) {
    return { path: at(path, 'enum'), problem: `must be an array (got ${describeJsonKind(schema.enum)})` }
  }
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    // draft-04 wrote exclusiveMinimum/Maximum as booleans; still accepted by most validators
    if (key in schema && typeof schema[key] !== 'number' && typeof schema[key] !== 'boolean') {
      return { path: at(path, key), problem: `must be a number (got ${describeJsonKind(schema[key])})` }
    }
  }
  if ('multipleOf' in schema && !(typeof schema.multipleOf === 'number' && schema.multipleOf > 0)) {
    return { path: at(path, 'multipleOf'), problem: `must be a number greater than 0 (got ${JSON.stringify(schema.multipleOf)})` }
  }
  for (const key of COUNT_KEYWORDS) {
    if (key in schema && !(Number.isInteger(schema[key]) && (schema[key] as number) >= 0)) {
      return { path: at(path, key), problem: `must be a non-negative integer (got ${JSON.stringify(schema[key])})` }
    }
  }
  for (const key of STRING_KEYWORDS) {
    if (key in schema && typeof schema[key] !== 'string') {
      return { path: at(path, key), problem: `must be a string (got ${describeJsonKind(schema[key])})` }
    }
  }
  if ('uniqueItems' in schema && typeof schema.uniqueItems !== 'boolean') {
    return { path: at(path, 'uniqueItems'), problem: `must be a boolean (got ${describeJsonKind(schema.uniqueItems)})` }
  }
  if ('pattern' in schema) {
    if (typeof schema.pattern !== 'string') {
      return { path: at(path, 'pattern'), problem: `must be a string (got ${describeJsonKind(schema.pattern)})` }
    }
    try {
      // Parsing only, which is linear in the pattern; matching runs in re2js (shared/tools/patterns), where a
      // pattern that needs backtracking is refused when the tool is called, not here.
      new RegExp(schema.pattern, 'u')
    }
    catch (error) {
      return { path: at(path, 'pattern'), problem: `is not a valid regular expression (${(error as Error).message})` }
    }
  }
  return null
}

function describeRequired(value: unknown): string {
  if (Array.isArray(value)) {
    const bad = value.find(entry => typeof entry !== 'string')
    return `an array holding ${describeJsonKind(bad)}`
  }
  return describeJsonKind(value)
}
