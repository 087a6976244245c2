/**
 * An answer to a form question that arrived from elsewhere (a tab answering a chat that runs on the server), checked
 * against the form the server asked for before it goes on to the MCP server: every key one of the form's fields,
 * every value of its field's type, and the field rules the form itself applies (required, lengths, bounds, formats,
 * choices). Pure: no Vue, no SDK.
 */
import { isRecord } from '../types/is-record'
import type { ElicitationContent, ElicitationField, ElicitationForm, ElicitationValue, ElicitationValues } from './mcp-elicitation-form'
import { checkElicitationValues } from './mcp-elicitation-form'

export type CheckedElicitationContent = { ok: true, content: ElicitationContent } | { ok: false, message: string }

/** The value as the form edits it, or undefined when its type is not the field's. */
function asFormValue(field: ElicitationField, value: unknown): ElicitationValue | undefined {
  switch (field.kind) {
    case 'boolean': return typeof value === 'boolean' ? value : undefined
    case 'number':
    case 'integer': return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined
    case 'multi-select': return Array.isArray(value) && value.every(item => typeof item === 'string') ? value as string[] : undefined
    default: return typeof value === 'string' ? value : undefined
  }
}

/** Checks `content` against `form`; the content to send, or what is wrong with it (for the one who answered). */
export function checkElicitationContent(form: Pick<ElicitationForm, 'fields'>, content: unknown): CheckedElicitationContent {
  if (!isRecord(content)) return { ok: false, message: 'the answer must be an object of the form\'s fields' }
  const fields = new Map(form.fields.map(field => [field.key, field]))
  const values: ElicitationValues = {}
  for (const [key, value] of Object.entries(content)) {
    const field = fields.get(key)
    if (!field) return { ok: false, message: `"${key.slice(0, 40)}" is not a field of this form` }
    const read = asFormValue(field, value)
    if (read === undefined) return { ok: false, message: `"${field.label}" has a value of the wrong type` }
    values[key] = read
  }
  const check = checkElicitationValues(form, values)
  const problem = Object.entries(check.errors)[0]
  if (problem) return { ok: false, message: `"${fields.get(problem[0])?.label ?? problem[0]}": ${problem[1]}` }
  // a choice the form does not offer is dropped by the check: an answer that lost anything is refused, not trimmed
  for (const [key, value] of Object.entries(content)) {
    if (JSON.stringify(check.content[key]) !== JSON.stringify(value)) return { ok: false, message: `"${fields.get(key)!.label}" holds a value the form does not take` }
  }
  return { ok: true, content: check.content }
}
