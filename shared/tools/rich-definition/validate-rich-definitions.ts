import {
  COSTING_UNITS, INPUT_FIELD_TYPES, PRIMARY_INPUTS, RATE_SOURCES,
} from '../../types/rich-tool-definition'
import type { InputField, RichToolDefinition, ToolSettingsSchema } from '../../types/rich-tool-definition'
import { normalizeCommandName } from './to-rich-tool-definition'
import { isRecord } from '../../types/is-record'

/** One thing wrong with a definition: which tool, where, and what. */
export interface CatalogProblem {
  toolId: string
  /** Dotted path inside the definition, e.g. 'inputSchema.city.type'. */
  path: string
  message: string
}

export interface CatalogValidation {
  valid: boolean
  problems: CatalogProblem[]
}

/** OpenAI's rule for function names: a toolId is the name the model calls. */
export const TOOL_ID_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/
/** A slash command: '/' then 1 to 32 lower-case letters, digits, '_' or '-', starting with a letter. */
export const COMMAND_PATTERN = /^\/[a-z][a-z0-9_-]{0,31}$/
const SETTING_TYPES = ['string', 'number', 'boolean']

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'string' ? JSON.stringify(value) : typeof value
}

/** True when `value` fits an input of type `type` (media kinds are URLs or data URLs: strings). */
function fitsType(type: string, value: unknown): boolean {
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value)
  if (type === 'boolean') return typeof value === 'boolean'
  return typeof value === 'string'
}

function checkInput(key: string, field: unknown, report: (path: string, message: string) => void) {
  const path = `inputSchema.${key}`
  if (!isRecord(field)) return report(path, `must be an object (got ${describe(field)})`)
  const input = field as unknown as InputField
  if (input.name !== key) report(`${path}.name`, `must be "${key}", the key it is listed under (got ${describe(input.name)})`)
  if (!INPUT_FIELD_TYPES.includes(input.type)) report(`${path}.type`, `must be one of ${INPUT_FIELD_TYPES.join(', ')} (got ${describe(input.type)})`)
  if (typeof input.required !== 'boolean') report(`${path}.required`, `must be true or false (got ${describe(input.required)})`)
  if (input.advanced !== undefined && typeof input.advanced !== 'boolean') report(`${path}.advanced`, `must be true or false (got ${describe(input.advanced)})`)
  if (input.description !== undefined && typeof input.description !== 'string') report(`${path}.description`, 'must be a string')
  if (input.schemaType !== undefined && input.schemaType !== 'array' && input.schemaType !== 'object') {
    report(`${path}.schemaType`, `must be "array", "object" or left out (got ${describe(input.schemaType)})`)
  }
  else if (input.schemaType !== undefined) {
    const fits = input.schemaType === 'array' ? Array.isArray(input.default) : isRecord(input.default)
    if (input.default !== undefined && input.default !== null && !fits) report(`${path}.default`, `must be ${input.schemaType === 'array' ? 'a list' : 'an object'} like the field (got ${describe(input.default)})`)
  }
  else if (input.default !== undefined && input.default !== null && INPUT_FIELD_TYPES.includes(input.type) && !fitsType(input.type, input.default)) {
    report(`${path}.default`, `must be a ${input.type === 'number' || input.type === 'boolean' ? input.type : 'string'} like the field (got ${describe(input.default)})`)
  }
}

function checkSettings(settings: unknown, report: (path: string, message: string) => void) {
  if (!isRecord(settings)) return report('metadata.settings', `must be an object of setting fields (got ${describe(settings)})`)
  for (const [key, field] of Object.entries(settings as ToolSettingsSchema)) {
    const path = `metadata.settings.${key}`
    if (!isRecord(field)) {
      report(path, `must be an object (got ${describe(field)})`)
      continue
    }
    if (!SETTING_TYPES.includes(field.type)) {
      report(`${path}.type`, `must be one of ${SETTING_TYPES.join(', ')} (got ${describe(field.type)})`)
      continue
    }
    if (field.default !== undefined && !fitsType(field.type, field.default)) report(`${path}.default`, `must be a ${field.type} (got ${describe(field.default)})`)
    if (field.enum !== undefined && (!Array.isArray(field.enum) || field.enum.length === 0 || !field.enum.every(value => fitsType(field.type, value)))) {
      report(`${path}.enum`, `must be a non-empty list of ${field.type} values`)
    }
    else if (field.enum !== undefined && field.default !== undefined && !field.enum.includes(field.default as string | number)) {
      report(`${path}.default`, `must be one of the enum's values (got ${describe(field.default)})`)
    }
  }
}

/** The problems of one definition, without looking at the others. */
export function validateRichDefinition(definition: unknown): CatalogProblem[] {
  const problems: CatalogProblem[] = []
  const toolId = isRecord(definition) && typeof definition.toolId === 'string' ? definition.toolId : '?'
  const report = (path: string, message: string) => {
    problems.push({ toolId, path, message })
  }
  if (!isRecord(definition)) {
    report('', `must be an object (got ${describe(definition)})`)
    return problems
  }
  const tool = definition as unknown as RichToolDefinition
  if (typeof tool.toolId !== 'string' || !TOOL_ID_PATTERN.test(tool.toolId)) {
    report('toolId', `must be 1 to 64 letters, digits, "_" or "-" (got ${describe(tool.toolId)})`)
  }
  for (const key of ['service', 'displayName'] as const) {
    if (typeof tool[key] !== 'string' || tool[key].trim() === '') report(key, `must be a non-empty string (got ${describe(tool[key])})`)
  }
  for (const key of ['description', 'apiPath', 'version'] as const) {
    if (tool[key] !== undefined && typeof tool[key] !== 'string') report(key, `must be a string (got ${describe(tool[key])})`)
  }
  if (tool.commandName !== undefined && (typeof tool.commandName !== 'string' || !COMMAND_PATTERN.test(tool.commandName))) {
    report('commandName', `must be "/" and 1 to 32 lower-case letters, digits, "_" or "-", starting with a letter (got ${describe(tool.commandName)})`)
  }
  if (tool.deprecated !== undefined && typeof tool.deprecated !== 'boolean' && typeof tool.deprecated !== 'string') {
    report('deprecated', `must be true, false or a reason (got ${describe(tool.deprecated)})`)
  }
  if (!isRecord(tool.inputSchema)) report('inputSchema', `must be an object of input fields (got ${describe(tool.inputSchema)})`)
  else for (const [key, field] of Object.entries(tool.inputSchema)) checkInput(key, field, report)
  if (tool.outputSchema !== undefined && !isRecord(tool.outputSchema)) report('outputSchema', `must be an object (got ${describe(tool.outputSchema)})`)
  if (tool.costingModel !== undefined) {
    const cost = tool.costingModel
    if (!isRecord(cost)) report('costingModel', `must be an object (got ${describe(cost)})`)
    else {
      if (typeof cost.rate !== 'number' || !Number.isFinite(cost.rate) || cost.rate < 0) report('costingModel.rate', `must be a number of USD per unit, 0 or more (got ${describe(cost.rate)})`)
      if (!COSTING_UNITS.includes(cost.unit)) report('costingModel.unit', `must be one of ${COSTING_UNITS.join(', ')} (got ${describe(cost.unit)})`)
      if (cost.rateSource !== undefined && !RATE_SOURCES.includes(cost.rateSource)) report('costingModel.rateSource', `must be one of ${RATE_SOURCES.join(', ')} (got ${describe(cost.rateSource)})`)
    }
  }
  if (tool.platformHints !== undefined) {
    if (!isRecord(tool.platformHints) || !PRIMARY_INPUTS.includes(tool.platformHints.primaryInput)) {
      report('platformHints.primaryInput', `must be one of ${PRIMARY_INPUTS.join(', ')}`)
    }
  }
  if (tool.metadata !== undefined && !isRecord(tool.metadata)) report('metadata', `must be an object (got ${describe(tool.metadata)})`)
  else if (tool.metadata?.settings !== undefined) checkSettings(tool.metadata.settings, report)
  return problems
}

/**
 * Checks a list of definitions: each one on its own, then that no two share a toolId or a command (commands
 * compared without case and slash). Never throws; `valid` is true when there is no problem.
 */
export function validateRichDefinitions(definitions: readonly unknown[]): CatalogValidation {
  const problems = definitions.flatMap(validateRichDefinition)
  const ids = new Map<string, number>()
  const commands = new Map<string, string>()
  definitions.forEach((definition, index) => {
    if (!isRecord(definition)) return
    const { toolId, commandName } = definition as unknown as RichToolDefinition
    if (typeof toolId === 'string') {
      if (ids.has(toolId)) problems.push({ toolId, path: 'toolId', message: `is used by definitions #${ids.get(toolId)! + 1} and #${index + 1}` })
      else ids.set(toolId, index)
    }
    if (typeof commandName === 'string') {
      const command = normalizeCommandName(commandName)
      const owner = commands.get(command)
      if (owner !== undefined) problems.push({ toolId: String(toolId), path: 'commandName', message: `${command} is already the command of "${owner}"` })
      else commands.set(command, String(toolId))
    }
  })
  return { valid: problems.length === 0, problems }
}

/** One line per problem: 'get_weather: inputSchema.city.type must be one of ...'. */
export function formatCatalogProblems(problems: readonly CatalogProblem[]): string {
  return problems.map(problem => `${problem.toolId}: ${problem.path ? `${problem.path} ` : ''}${problem.message}`).join('\n')
}
