/**
 * The form an MCP server's `elicitation/create` (form mode) asks for, read from its `requestedSchema`: a flat object
 * of strings (length, format), numbers, integers, booleans, single-select enums (plain, `oneOf` const/title, legacy
 * `enumNames`) and multi-select enums (`type: array`). Fields start at the schema's defaults (SEP-1034). A schema
 * outside that subset, or larger than the limits, is refused whole with a reason the server is told.
 * Pure: no Vue, no SDK.
 */
import { isRecord } from '../types/is-record'
import { MAX_ELICITATION_FIELDS, MAX_ELICITATION_OPTIONS, MAX_ELICITATION_SCHEMA_CHARS, MAX_ELICITATION_TEXT_CHARS } from './mcp-limits'

export type ElicitationFieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'select' | 'multi-select'
export type ElicitationStringFormat = 'email' | 'uri' | 'date' | 'date-time'

export interface ElicitationOption {
  value: string
  label: string
}

export interface ElicitationField {
  key: string
  kind: ElicitationFieldKind
  label: string
  description?: string
  required: boolean
  format?: ElicitationStringFormat
  /** Length for text, count for multi-select, value for numbers. */
  min?: number
  max?: number
  options?: ElicitationOption[]
}

/** What the user edits: text for text and numbers, a flag for booleans, the chosen values of a multi-select. */
export type ElicitationValue = string | boolean | string[]
export type ElicitationValues = Record<string, ElicitationValue>

export interface ElicitationForm {
  fields: ElicitationField[]
  /** Each field's starting value: the schema's default when it has a usable one. */
  initial: ElicitationValues
}

/** The content an Accept sends. */
export type ElicitationContent = Record<string, string | number | boolean | string[]>

const FORMATS = new Set<string>(['email', 'uri', 'date', 'date-time'])

function text(value: unknown, max = 200): string | undefined {
  return typeof value === 'string' ? value.slice(0, max) : undefined
}

function bound(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/** `[{ const, title }]` or `enum` (+ legacy `enumNames`) as options, or a reason they cannot be offered. */
function readOptions(schema: Record<string, unknown>, where: string): ElicitationOption[] | string {
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined
  const list: ElicitationOption[] = []
  if (titled) {
    for (const item of titled) {
      if (!isRecord(item) || typeof item.const !== 'string') return `${where}: each choice must be { "const": "…", "title": "…" }`
      list.push({ value: item.const, label: text(item.title) ?? item.const })
    }
  }
  else if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : []
    for (const [index, value] of schema.enum.entries()) {
      if (typeof value !== 'string') return `${where}: choices must be strings`
      list.push({ value, label: text(names[index]) ?? value })
    }
  }
  else return `${where}: no choices given`
  if (list.length === 0) return `${where}: no choices given`
  if (list.length > MAX_ELICITATION_OPTIONS) return `${where}: ${list.length} choices (at most ${MAX_ELICITATION_OPTIONS})`
  return list
}

function readField(key: string, schema: unknown, required: boolean): { field: ElicitationField, initial: ElicitationValue } | string {
  const where = `field "${key.slice(0, 40)}"`
  if (!isRecord(schema)) return `${where} has no schema`
  const base = { key, required, label: text(schema.title) ?? key, ...(text(schema.description, 1_000) && { description: text(schema.description, 1_000) }) }
  const fallback = schema.default
  switch (schema.type) {
    case 'boolean':
      return { field: { ...base, kind: 'boolean' }, initial: fallback === true }
    case 'number':
    case 'integer': {
      const usable = bound(fallback) !== undefined && (schema.type === 'number' || Number.isInteger(fallback))
      return { field: { ...base, kind: schema.type, min: bound(schema.minimum), max: bound(schema.maximum) }, initial: usable ? String(fallback) : '' }
    }
    case 'string': {
      if (Array.isArray(schema.enum) || Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) {
        const options = readOptions(schema, where)
        if (typeof options === 'string') return options
        const initial = typeof fallback === 'string' && options.some(option => option.value === fallback) ? fallback : ''
        return { field: { ...base, kind: 'select', options }, initial }
      }
      if (schema.format !== undefined && !FORMATS.has(String(schema.format))) return `${where} has an unknown format ${JSON.stringify(String(schema.format).slice(0, 40))}`
      const format = schema.format as ElicitationStringFormat | undefined
      const max = Math.min(bound(schema.maxLength) ?? MAX_ELICITATION_TEXT_CHARS, MAX_ELICITATION_TEXT_CHARS)
      return { field: { ...base, kind: 'text', ...(format && { format }), min: bound(schema.minLength), max }, initial: typeof fallback === 'string' ? fallback.slice(0, max) : '' }
    }
    case 'array': {
      if (!isRecord(schema.items)) return `${where}: a list needs "items" with its choices`
      const options = readOptions(schema.items, where)
      if (typeof options === 'string') return options
      const initial = Array.isArray(fallback) ? fallback.filter((value): value is string => options.some(option => option.value === value)) : []
      return { field: { ...base, kind: 'multi-select', options, min: bound(schema.minItems), max: bound(schema.maxItems) }, initial }
    }
    default:
      return `${where} has type ${JSON.stringify(schema.type ?? null)}; a form takes strings, numbers, integers, booleans and lists of choices`
  }
}

/** Reads `requestedSchema` into a form, or the reason it cannot be shown. Never throws; keeps no reference to it. */
export function readElicitationSchema(schema: unknown): ElicitationForm | { problem: string } {
  let json: string | undefined
  try {
    json = JSON.stringify(schema)
  }
  catch {
    return { problem: 'the requested schema is not plain JSON' }
  }
  if (json === undefined || json.length > MAX_ELICITATION_SCHEMA_CHARS) return { problem: `the requested schema is larger than ${MAX_ELICITATION_SCHEMA_CHARS / 1024} KB` }
  const copy: unknown = JSON.parse(json)
  if (!isRecord(copy) || copy.type !== 'object') return { problem: 'the requested schema is not { "type": "object" }' }
  const properties = copy.properties === undefined ? {} : copy.properties
  if (!isRecord(properties)) return { problem: 'the requested schema\'s "properties" is not an object' }
  const keys = Object.keys(properties)
  if (keys.length > MAX_ELICITATION_FIELDS) return { problem: `the requested schema has ${keys.length} fields (at most ${MAX_ELICITATION_FIELDS})` }
  const required = new Set(Array.isArray(copy.required) ? copy.required.filter(key => typeof key === 'string') : [])
  const form: ElicitationForm = { fields: [], initial: {} }
  for (const key of keys) {
    const read = readField(key, properties[key], required.has(key))
    if (typeof read === 'string') return { problem: read }
    form.fields.push(read.field)
    form.initial[key] = read.initial
  }
  return form
}

function formatProblem(format: ElicitationStringFormat, value: string): string | undefined {
  switch (format) {
    case 'email': return /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/.test(value) ? undefined : 'enter an email address'
    case 'uri': return URL.canParse(value) ? undefined : 'enter a full address (https://…)'
    case 'date': return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : 'enter a date (YYYY-MM-DD)'
    case 'date-time': return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value)) ? undefined : 'enter a date and time (YYYY-MM-DDTHH:MM)'
  }
}

function checkField(field: ElicitationField, raw: ElicitationValue | undefined): { value?: ElicitationContent[string], error?: string } {
  const { min, max } = field
  if (field.kind === 'boolean') return { value: raw === true }
  if (field.kind === 'multi-select') {
    const chosen = Array.isArray(raw) ? raw.filter(value => field.options?.some(option => option.value === value)) : []
    if (chosen.length === 0 && !field.required && min === undefined) return {}
    if (min !== undefined && chosen.length < min) return { error: `choose at least ${min}` }
    if (chosen.length === 0) return { error: 'choose at least one' }
    if (max !== undefined && chosen.length > max) return { error: `choose at most ${max}` }
    return { value: chosen }
  }
  const input = typeof raw === 'string' ? raw : ''
  if (input.trim() === '') return field.required ? { error: 'required' } : {}
  if (field.kind === 'select') return field.options?.some(option => option.value === input) ? { value: input } : { error: 'choose one of the options' }
  if (field.kind === 'number' || field.kind === 'integer') {
    const number = Number(input.trim())
    if (!Number.isFinite(number)) return { error: 'enter a number' }
    if (field.kind === 'integer' && !Number.isInteger(number)) return { error: 'enter a whole number' }
    if (min !== undefined && number < min) return { error: `at least ${min}` }
    if (max !== undefined && number > max) return { error: `at most ${max}` }
    return { value: number }
  }
  if (min !== undefined && input.length < min) return { error: `at least ${min} characters` }
  if (max !== undefined && input.length > max) return { error: `at most ${max} characters` }
  const problem = field.format && formatProblem(field.format, input)
  return problem ? { error: problem } : { value: input }
}

/** Reads the form back into the content an Accept sends, or the problems by field key. Empty optional fields are left out. */
export function checkElicitationValues(form: Pick<ElicitationForm, 'fields'>, values: ElicitationValues): { content: ElicitationContent, errors: Record<string, string>, valid: boolean } {
  const content: ElicitationContent = {}
  const errors: Record<string, string> = {}
  for (const field of form.fields) {
    const checked = checkField(field, values[field.key])
    if (checked.error) errors[field.key] = checked.error
    else if (checked.value !== undefined) content[field.key] = checked.value
  }
  return { content, errors, valid: Object.keys(errors).length === 0 }
}
