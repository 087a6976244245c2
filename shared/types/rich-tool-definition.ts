/**
 * The rich tool definition of design 003: what the catalog page, slash commands, cost estimates and the flash
 * export read. The model never sees it: `toOpenAIToolDefinition` derives the OpenAI function it is offered, and
 * `toRichToolDefinition` derives a rich definition from every registered tool's OpenAI definition + metadata.
 */

/** The kinds of input design 003 names. Media kinds travel to the model as a string (a URL or data URL). */
export type InputFieldType = 'string' | 'number' | 'boolean' | 'image' | 'video' | 'audio' | 'file'
export const INPUT_FIELD_TYPES: readonly InputFieldType[] = ['string', 'number', 'boolean', 'image', 'video', 'audio', 'file']

/** One argument of a tool. */
export interface InputField {
  name: string
  type: InputFieldType
  required: boolean
  default?: unknown
  description?: string
  /** Shown under "Advanced" in forms. @default false */
  advanced?: boolean
  /** Allowed values, when the schema lists them. */
  enum?: readonly unknown[]
  /**
   * The JSON Schema type when none of design 003's kinds says it (a list or an object: `type` is then 'string', what
   * a form or a command line gives), so a default such as `[]` is still checked against what the model is sent.
   */
  schemaType?: 'array' | 'object'
}

/** One part of a tool's output. */
export interface OutputField {
  name: string
  type: InputFieldType | 'object' | 'array'
  description?: string
}

export type CostingUnit = 'second' | 'token' | 'request'
export const COSTING_UNITS: readonly CostingUnit[] = ['second', 'token', 'request']
export type RateSource = 'static' | 'machine' | 'api'
export const RATE_SOURCES: readonly RateSource[] = ['static', 'machine', 'api']

/** What a run costs: `rate` (USD) per `unit`. */
export interface CostingModel {
  /** USD per unit, e.g. 0.000337. */
  rate: number
  unit: CostingUnit
  /** @default 'static' */
  rateSource?: RateSource
}

export type PrimaryInput = 'text' | 'image' | 'video' | 'audio' | 'file'
export const PRIMARY_INPUTS: readonly PrimaryInput[] = ['text', 'image', 'video', 'audio', 'file']

export interface PlatformHints {
  primaryInput: PrimaryInput
  supportsFileCaption?: boolean
  supportsReplyWithCommand?: boolean
}

/** One field of a tool's settings form (per user, saved in the browser, handed to the handler as `context.settings`). */
export interface ToolSettingField {
  type: 'string' | 'number' | 'boolean'
  /** Form label. @default the key */
  label?: string
  description?: string
  default?: string | number | boolean
  /** The allowed values (a select). */
  enum?: readonly (string | number)[]
  /** Bounds of a number. */
  minimum?: number
  maximum?: number
}

/** A settings schema: setting key → field. */
export type ToolSettingsSchema = Record<string, ToolSettingField>

/**
 * What a tool declares for the catalog, beside its OpenAI definition: `defineTool({ ..., catalog: { ... } })`,
 * `registerTool({ type, function, catalog })` or `registerServerTool({ ..., catalog })`. Every field is optional.
 */
export interface ToolCatalogMetadata {
  /** The slash command, e.g. 'calc' (typed `/calc`). 1 to 32 lower-case letters, digits, '_' or '-'. */
  commandName?: string
  costingModel?: CostingModel
  /** Per-user settings, given to the handler as `context.settings`. */
  settings?: ToolSettingsSchema
  version?: string
  /** true, or the reason / what to use instead. */
  deprecated?: boolean | string
  /** Where the tool comes from, e.g. 'open-meteo'. @default the runtime's service ('browser', 'server') */
  service?: string
  /** @default the tool's label */
  displayName?: string
  apiPath?: string
  outputSchema?: Record<string, OutputField>
  platformHints?: PlatformHints
  /** Per argument: its media kind (an image URL is a 'string' to JSON Schema) or that it is advanced. */
  inputs?: Record<string, { type?: InputFieldType, advanced?: boolean }>
  metadata?: Record<string, unknown>
}

/** The rich definition (design 003's `ToolDefinition`, named so it is not taken for OpenAI's). */
export interface RichToolDefinition {
  /** System-unique; the OpenAI function name. */
  toolId: string
  /** Source of the tool: 'browser', 'server', 'static', an MCP server's name... */
  service: string
  displayName: string
  description?: string
  /** With its slash, e.g. '/calc'. */
  commandName?: string
  apiPath?: string
  inputSchema: Record<string, InputField>
  outputSchema?: Record<string, OutputField>
  costingModel?: CostingModel
  platformHints?: PlatformHints
  version?: string
  deprecated?: boolean | string
  /**
   * Everything else: `category`, `icon`, `runtime`, `timeoutMs`, `settings` (the settings schema), `parameters`
   * (the JSON Schema the model sees, kept whole so the mapping back is lossless), `static` (listed, never offered).
   */
  metadata?: RichToolMetadata
}

export interface RichToolMetadata {
  category?: string
  icon?: string
  runtime?: 'hybrid' | 'client' | 'server' | 'static'
  timeoutMs?: number
  settings?: ToolSettingsSchema
  parameters?: Record<string, unknown>
  /** OpenAI's `strict` of the function, when it was set. */
  strict?: boolean
  /** Listed from a static file: no handler here, so it is never offered to the model. */
  static?: boolean
  /** The origins a plugin's browser handler connects to (its `connects`): the page's policy allows them. */
  connects?: string[]
  [key: string]: unknown
}
