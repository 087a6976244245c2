import type { ToolDefinition } from '../../types/chat'
import type { InputField, InputFieldType, RichToolDefinition, RichToolMetadata, ToolCatalogMetadata } from '../../types/rich-tool-definition'
import { isRecord } from '../../types/is-record'

/** What the catalog knows of a registered tool besides its OpenAI definition. */
export interface RichToolSource {
  /** 'browser', 'server', 'static', ... @default 'browser' */
  service?: string
  /** The switch's label. @default the toolId */
  label?: string
  category?: string
  icon?: string
  runtime?: RichToolMetadata['runtime']
  timeoutMs?: number
  catalog?: ToolCatalogMetadata
  /** The origins the tool's browser handler connects to (`connects`), kept in `metadata.connects` when any. */
  connects?: readonly string[]
}

const MEDIA_PREFIXES: Array<[string, InputFieldType]> = [['image/', 'image'], ['video/', 'video'], ['audio/', 'audio']]

/** The input kind of one JSON Schema property: number/integer → number, media by `contentMediaType`, else string. */
function inputType(schema: Record<string, unknown>): InputFieldType {
  const type = Array.isArray(schema.type) ? schema.type.find(entry => entry !== 'null') : schema.type
  if (type === 'number' || type === 'integer') return 'number'
  if (type === 'boolean') return 'boolean'
  const media = typeof schema.contentMediaType === 'string' ? schema.contentMediaType : ''
  for (const [prefix, kind] of MEDIA_PREFIXES) if (media.startsWith(prefix)) return kind
  if (media) return 'file'
  return 'string'
}

/** The input fields of a JSON Schema object's properties, in their order. */
export function inputFieldsFromParameters(parameters: unknown, overrides: ToolCatalogMetadata['inputs'] = {}): Record<string, InputField> {
  const schema = isRecord(parameters) ? parameters : {}
  const properties = isRecord(schema.properties) ? schema.properties : {}
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter(name => typeof name === 'string') : [])
  const fields: Record<string, InputField> = {}
  for (const [name, value] of Object.entries(properties)) {
    const property = isRecord(value) ? value : {}
    const override = isRecord(overrides?.[name]) ? overrides[name] : {}
    fields[name] = {
      name,
      type: override.type ?? inputType(property),
      required: required.has(name),
      // `default: null` on an optional input is the common way of saying "none"
      ...(property.default !== undefined && property.default !== null && { default: property.default }),
      ...(typeof property.description === 'string' && { description: property.description }),
      ...(override.advanced !== undefined && { advanced: override.advanced }),
      ...(Array.isArray(property.enum) && { enum: property.enum }),
      ...(!override.type && (property.type === 'array' || property.type === 'object') && { schemaType: property.type }),
    }
  }
  return fields
}

/** A slash command written with or without its slash, as stored: '/calc'. */
export function normalizeCommandName(command: string): string {
  const trimmed = command.trim().toLowerCase()
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

/**
 * The rich definition of a registered tool: its OpenAI definition (name, description, parameters) plus the
 * metadata it declared. The JSON Schema is kept whole in `metadata.parameters`, so `toOpenAIToolDefinition` gives
 * back exactly what the model is offered.
 */
export function toRichToolDefinition(definition: ToolDefinition, source: RichToolSource = {}): RichToolDefinition {
  const fn = definition.function
  const catalog = source.catalog ?? {}
  const metadata: RichToolMetadata = {
    ...catalog.metadata,
    ...(source.category !== undefined && { category: source.category }),
    ...(source.icon !== undefined && { icon: source.icon }),
    ...(source.runtime !== undefined && { runtime: source.runtime }),
    ...(source.timeoutMs !== undefined && { timeoutMs: source.timeoutMs }),
    ...(catalog.settings !== undefined && { settings: catalog.settings }),
    parameters: fn.parameters ?? { type: 'object', properties: {} },
    ...(fn.strict !== undefined && { strict: fn.strict }),
    ...(source.connects?.length && { connects: [...source.connects] }),
  }
  return {
    toolId: fn.name,
    service: catalog.service ?? source.service ?? 'browser',
    displayName: catalog.displayName ?? source.label ?? fn.name,
    ...(fn.description !== undefined && { description: fn.description }),
    ...(catalog.commandName !== undefined && { commandName: normalizeCommandName(catalog.commandName) }),
    ...(catalog.apiPath !== undefined && { apiPath: catalog.apiPath }),
    inputSchema: inputFieldsFromParameters(fn.parameters, catalog.inputs),
    ...(catalog.outputSchema !== undefined && { outputSchema: catalog.outputSchema }),
    ...(catalog.costingModel !== undefined && { costingModel: { rateSource: 'static', ...catalog.costingModel } }),
    ...(catalog.platformHints !== undefined && { platformHints: catalog.platformHints }),
    ...(catalog.version !== undefined && { version: catalog.version }),
    ...(catalog.deprecated !== undefined && { deprecated: catalog.deprecated }),
    metadata,
  }
}
