/**
 * The form a card waiting for approval shows: one field per argument, generated from the tool's JSON Schema
 * (strings, numbers, integers, booleans, enums; a JSON text box for anything else), and the live check of what
 * the user typed with the same validator the executor runs.
 */
import { parseToolArguments, validateToolArguments } from '#shared/tools/validate-tool-arguments'
import type { JsonSchemaObject } from '#shared/types/chat'
import { isRecord } from '#shared/types/is-record'

export type ApprovalFieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json'

export interface ApprovalField {
  key: string
  kind: ApprovalFieldKind
  label: string
  description?: string
  required: boolean
  /** The allowed values of an enum, as JSON text (the select's values). */
  options?: string[]
}

/** What the user edits: text for every field but booleans. */
export type ApprovalValues = Record<string, string | boolean>

export interface ApprovalForm {
  /** Empty: the arguments are edited as one JSON text (no usable schema, or arguments that are not an object). */
  fields: ApprovalField[]
  values: ApprovalValues
  /** Arguments the schema does not list, kept as the model wrote them. */
  extra: Record<string, unknown>
  /** The whole arguments as JSON text (the form's fallback). */
  json: string
}

const SIMPLE_TYPES = new Set(['string', 'number', 'integer', 'boolean'])

/** The kind of input a property's schema gets. */
export function fieldKind(schema: unknown): ApprovalFieldKind {
  if (!isRecord(schema)) return 'json'
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every(value => value === null || typeof value !== 'object')) return 'enum'
  return typeof schema.type === 'string' && SIMPLE_TYPES.has(schema.type) ? schema.type as ApprovalFieldKind : 'json'
}

/** Builds the form for `argumentsText` from the tool's parameters schema (undefined: JSON only). */
export function createApprovalForm(schema: JsonSchemaObject | undefined, argumentsText: string): ApprovalForm {
  const parsed = parseToolArguments(argumentsText)
  const json = parsed.ok ? JSON.stringify(parsed.value, null, 2) : argumentsText
  const properties = isRecord(schema?.properties) ? schema.properties : undefined
  if (!parsed.ok || !properties || Object.keys(properties).length === 0) return { fields: [], values: {}, extra: {}, json }
  const required = new Set(Array.isArray(schema?.required) ? schema.required.filter(key => typeof key === 'string') : [])
  const fields: ApprovalField[] = []
  const values: ApprovalValues = {}
  for (const [key, propertySchema] of Object.entries(properties)) {
    const kind = fieldKind(propertySchema)
    const property = isRecord(propertySchema) ? propertySchema : {}
    fields.push({
      key, kind, required: required.has(key),
      label: typeof property.title === 'string' ? property.title : key,
      ...(typeof property.description === 'string' && { description: property.description }),
      ...(kind === 'enum' && { options: (property.enum as unknown[]).map(value => JSON.stringify(value)) }),
    })
    values[key] = initialValue(kind, parsed.value[key])
  }
  const extra = Object.fromEntries(Object.entries(parsed.value).filter(([key]) => !(key in properties)))
  return { fields, values, extra, json }
}

function initialValue(kind: ApprovalFieldKind, value: unknown): string | boolean {
  if (kind === 'boolean') return value === true
  if (value === undefined) return ''
  if (kind === 'enum' || kind === 'json') return JSON.stringify(value, null, kind === 'json' ? 2 : undefined)
  return typeof value === 'string' ? value : JSON.stringify(value)
}

export interface ApprovalCheck {
  /** The arguments as JSON text, when every field could be read. */
  argumentsText?: string
  /** Problems by field key; '' for the arguments as a whole. */
  errors: Record<string, string>
  valid: boolean
}

/**
 * Reads the fields back into arguments and checks them against the schema. An empty optional field is left out;
 * a number field holding something that is not a number, or a JSON field that does not parse, is its own error.
 */
export function checkApprovalForm(toolName: string, schema: JsonSchemaObject | undefined, form: Pick<ApprovalForm, 'fields' | 'extra'>, values: ApprovalValues, json: string): ApprovalCheck {
  const errors: Record<string, string> = {}
  let value: Record<string, unknown>
  if (form.fields.length === 0) {
    const parsed = parseToolArguments(json)
    if (!parsed.ok) return { errors: { '': parsed.error }, valid: false }
    value = parsed.value
  }
  else {
    value = { ...form.extra }
    for (const field of form.fields) {
      const raw = values[field.key]
      if (field.kind === 'boolean') {
        value[field.key] = raw === true
        continue
      }
      const text = typeof raw === 'string' ? raw : ''
      if (text.trim() === '' && field.kind !== 'string') continue
      if (text === '' && !field.required) continue
      const read = readField(field, text)
      if ('error' in read) errors[field.key] = read.error
      else value[field.key] = read.value
    }
  }
  if (schema && Object.keys(errors).length === 0) {
    const check = validateToolArguments(toolName, schema, value)
    if (!check.valid) {
      for (const issue of check.error.issues) {
        const key = form.fields.some(field => field.key === topKey(issue.path)) ? topKey(issue.path) : ''
        errors[key] ??= issue.path && key !== issue.path ? `${issue.path}: ${issue.message}` : issue.message
      }
    }
  }
  const valid = Object.keys(errors).length === 0
  return { errors, valid, ...(valid && { argumentsText: JSON.stringify(value) }) }
}

function topKey(path: string): string {
  return path.split(/[.[]/)[0] ?? ''
}

function readField(field: ApprovalField, text: string): { value: unknown } | { error: string } {
  if (field.kind === 'string') return { value: text }
  if (field.kind === 'number' || field.kind === 'integer') {
    const number = Number(text.trim())
    if (!Number.isFinite(number)) return { error: 'enter a number' }
    return { value: number }
  }
  const parsed = parseToolArguments(`{"value":${text}}`)
  if (!parsed.ok) return { error: 'not valid JSON' }
  return { value: parsed.value.value }
}
