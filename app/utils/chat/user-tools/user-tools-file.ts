/**
 * Tools written in the app, as a JSON file to keep or share:
 *
 * ```json
 * { "format": "plugboard.user-tools", "version": 1,
 *   "tools": [{ "name": "add", "description": "Adds two numbers", "timeoutMs": 5000,
 *               "parameters": { "type": "object", "properties": { "a": { "type": "number" } } },
 *               "code": "return args.a + args.b" }] }
 * ```
 *
 * An import is untrusted input: its size is bounded before parsing, every field is checked by the editor's rules,
 * unknown fields are refused (they would be silently lost), and nothing is kept unless the whole file is valid.
 */
import { parseJson } from '#shared/security/parse-json'
import { nestsDeeperThan } from '#shared/tools/parse-tool-arguments'
import type { UserToolRecord } from '~/db/types'
import { describeJsonKind } from '#shared/tools/definition/json-schema-structure'
import { validateUserToolDraft } from './user-tool-draft'
import type { UserToolDraft } from './user-tool-draft'
import { USER_TOOLS_MAX_COUNT, USER_TOOLS_MAX_IMPORT_BYTES } from './user-tool-limits'
import { isRecord } from '#shared/types/is-record'
import { FileProblemsError } from '#shared/errors/file-problems-error'

/** Deepest nesting a tool file may have: its schemas are refused past 64 levels, with room for the file's own. */
const MAX_FILE_DEPTH = 128

export const USER_TOOLS_FILE_FORMAT = 'plugboard.user-tools'
export const USER_TOOLS_FILE_VERSION = 1

/** One tool in a file. `parameters` is the schema itself (a string holding JSON is accepted too). */
export interface UserToolFileEntry {
  name: string
  description: string
  parameters: Record<string, unknown> | string
  code: string
  timeoutMs?: number
}

export interface UserToolsFile {
  format: typeof USER_TOOLS_FILE_FORMAT
  version: typeof USER_TOOLS_FILE_VERSION
  tools: UserToolFileEntry[]
}

/** The file refused, with every problem found (`tools[1].name: ...`). */
export class UserToolsImportError extends FileProblemsError {
  override readonly name = 'UserToolsImportError'

  constructor(problems: string[]) {
    super('The file was not imported', problems)
  }
}

/** The user's tools as the text of a file (stable order: by name). */
export function exportUserTools(records: readonly UserToolRecord[]): string {
  const tools: UserToolFileEntry[] = [...records]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(record => ({
      name: record.name,
      description: record.description,
      parameters: readStoredSchema(record.parameters),
      code: record.code,
      ...(record.timeoutMs !== undefined && { timeoutMs: record.timeoutMs }),
    }))
  const file: UserToolsFile = { format: USER_TOOLS_FILE_FORMAT, version: USER_TOOLS_FILE_VERSION, tools }
  return `${JSON.stringify(file, null, 2)}\n`
}

/** The stored schema text as an object; text that no longer parses is exported as it is (the import checks it). */
function readStoredSchema(text: string): Record<string, unknown> | string {
  try {
    const value: unknown = parseJson(text)
    return isRecord(value) ? value : text
  }
  catch {
    return text
  }
}

export interface ParseUserToolsFileOptions {
  /** Names of tools that are not the user's (plugins, server tools, MCP): an import cannot take them. */
  isNameTaken?: (name: string) => boolean
}

const ENTRY_KEYS = new Set(['name', 'description', 'parameters', 'code', 'timeoutMs'])
const FILE_KEYS = new Set(['format', 'version', 'tools', 'exportedAt'])

/**
 * Reads a file of tools: the format above, or a bare array of tools, or one tool object. Returns drafts that
 * pass the editor's checks, in file order.
 * @throws UserToolsImportError listing every problem
 */
export function parseUserToolsFile(text: string, options: ParseUserToolsFileOptions = {}): UserToolDraft[] {
  const bytes = new TextEncoder().encode(text).length
  if (bytes > USER_TOOLS_MAX_IMPORT_BYTES) {
    throw new UserToolsImportError([`The file is ${formatBytes(bytes)}; tool files of at most ${formatBytes(USER_TOOLS_MAX_IMPORT_BYTES)} are accepted.`])
  }
  // the checks below recurse once per level: a nesting bomb is refused before it can overflow the stack
  if (nestsDeeperThan(text, MAX_FILE_DEPTH)) throw new UserToolsImportError(['The file is nested too deeply to be a tool file.'])
  let value: unknown
  try {
    // `__proto__`, `constructor` and `prototype` keys are dropped rather than reaching a prototype
    value = parseJson(text)
  }
  catch (error) {
    throw new UserToolsImportError([`The file is not JSON: ${(error as Error).message}`])
  }
  const entries = readEntries(value)
  const problems: string[] = []
  const drafts: UserToolDraft[] = []
  const seen = new Set<string>()
  entries.forEach((entry, index) => {
    const at = `tools[${index}]`
    if (!isRecord(entry)) {
      problems.push(`${at}: must be an object with name, description, parameters and code (got ${describeJsonKind(entry)})`)
      return
    }
    const unknown = Object.keys(entry).filter(key => !ENTRY_KEYS.has(key))
    if (unknown.length) problems.push(`${at}: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map(key => JSON.stringify(key)).join(', ')}`)
    const draft = readDraft(entry, at, problems)
    if (!draft) return
    const name = draft.name.trim()
    const errors = validateUserToolDraft(draft, {
      isNameTaken: candidate => seen.has(candidate) || (options.isNameTaken?.(candidate) ?? false),
    })
    for (const [field, message] of Object.entries(errors)) problems.push(`${at}.${field} (${JSON.stringify(name).slice(0, 70)}): ${message}`)
    seen.add(name)
    drafts.push(draft)
  })
  if (problems.length) throw new UserToolsImportError(problems)
  return drafts
}

function readEntries(value: unknown): unknown[] {
  let entries: unknown
  if (Array.isArray(value)) {
    entries = value
  }
  else if (isRecord(value) && 'tools' in value) {
    const problems: string[] = []
    const unknown = Object.keys(value).filter(key => !FILE_KEYS.has(key))
    if (unknown.length) problems.push(`unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map(key => JSON.stringify(key)).join(', ')} at the top level`)
    if (value.format !== undefined && value.format !== USER_TOOLS_FILE_FORMAT) problems.push(`"format" must be "${USER_TOOLS_FILE_FORMAT}" (got ${JSON.stringify(value.format)?.slice(0, 60)})`)
    if (value.version !== undefined && value.version !== USER_TOOLS_FILE_VERSION) problems.push(`"version" ${JSON.stringify(value.version)?.slice(0, 20)} is not supported (this app reads version ${USER_TOOLS_FILE_VERSION})`)
    if (!Array.isArray(value.tools)) problems.push(`"tools" must be an array (got ${describeJsonKind(value.tools)})`)
    if (problems.length) throw new UserToolsImportError(problems)
    entries = value.tools
  }
  else if (isRecord(value)) {
    entries = [value]
  }
  else {
    throw new UserToolsImportError([`The file must hold a tool, a list of tools or {"format": "${USER_TOOLS_FILE_FORMAT}", "tools": [...]} (got ${describeJsonKind(value)}).`])
  }
  const list = entries as unknown[]
  if (list.length === 0) throw new UserToolsImportError(['The file holds no tools.'])
  if (list.length > USER_TOOLS_MAX_COUNT) throw new UserToolsImportError([`The file holds ${list.length} tools; at most ${USER_TOOLS_MAX_COUNT} can be imported at once.`])
  return list
}

function readDraft(entry: Record<string, unknown>, at: string, problems: string[]): UserToolDraft | undefined {
  const before = problems.length
  for (const key of ['name', 'description', 'code'] as const) {
    if (typeof entry[key] !== 'string') problems.push(`${at}.${key}: must be a string (got ${describeJsonKind(entry[key])})`)
  }
  let parameters: string | undefined
  if (typeof entry.parameters === 'string') parameters = entry.parameters
  else if (isRecord(entry.parameters)) parameters = JSON.stringify(entry.parameters, null, 2)
  else problems.push(`${at}.parameters: must be a JSON Schema object (got ${describeJsonKind(entry.parameters)})`)
  const timeoutMs = entry.timeoutMs
  if (timeoutMs !== undefined && typeof timeoutMs !== 'number') problems.push(`${at}.timeoutMs: must be a number (got ${describeJsonKind(timeoutMs)})`)
  if (problems.length > before) return undefined
  return {
    name: entry.name as string,
    description: entry.description as string,
    parameters: parameters!,
    code: entry.code as string,
    ...(timeoutMs !== undefined && { timeoutMs: timeoutMs as number }),
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.ceil(bytes / 1000)} KB`
}
