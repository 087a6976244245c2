import type { $ZodType, output as ZodOutput } from 'zod/v4/core'
import type { JsonSchemaObject } from '../../types/chat'
import type { PluginToolContext, ToolExecutionContext, ToolHandler } from '../tool-types'
import { lazyToolFetch } from '../lazy-tool-fetch'
import type { FromSchema } from './json-schema-type'
import { checkDeclaredOrigins, normalizeToolDefinition } from './tool-definition-validation'
import { InvalidToolDefinitionError } from '../../errors/invalid-tool-definition-error'
import type { RegisterableToolDefinition, ToolDefinitionMetadata } from './tool-definition-types'
import type { DesignToolDefinition, ReadonlyJsonSchemaObject, TypedToolDefinition } from './typed-tool-definition'

/** A tool's parameters: a zod object schema, or a JSON Schema object written `as const`. */
export type ToolParameters = $ZodType | Readonly<JsonSchemaObject>

/** The handler's argument type, inferred from the parameters. */
export type InferToolArgs<P> = P extends $ZodType ? ZodOutput<P> : FromSchema<P>

/** What `defineTool` takes: the name, parameters and handler, `strict`, and the metadata `registerTool` takes. */
export interface DefineToolOptions<P extends ToolParameters, R = unknown> extends ToolDefinitionMetadata {
  /** `^[a-zA-Z0-9_-]{1,64}$`; by convention snake_case, the file the same name in kebab-case. */
  name: string
  /** Tells the model when to use the tool. Also shown in the popover unless `ui.descriptionHint` is set. */
  description?: string
  /** Omitted: the tool takes no arguments. */
  parameters?: P
  /** Runs a call; `context.fetch` is the fetch to reach the origins of `connects`. */
  handler: (args: InferToolArgs<P>, context: PluginToolContext) => R
  /** Sets OpenAI's `strict` on the function. @default undefined */
  strict?: boolean
}

/**
 * A tool plugin: what a file in `plugins/` default-exports, ready for `registerTool`. `Args` and `Result` are the
 * handler's argument and (awaited) result types, kept for a tool card typed from the tool (`ToolCardPropsOf`).
 */
export interface ToolPlugin<Args = unknown, Result = unknown> {
  readonly kind: 'plugboard.tool'
  readonly definition: RegisterableToolDefinition
  readonly handler: (args: unknown, context: ToolExecutionContext) => unknown
  /** Types only, never set: what the handler takes and gives. */
  readonly types?: { args: Args, result: Result }
}

function isZodSchema(value: unknown): value is $ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value
}

/** What the design's form of `defineTool` returns: the definition, typed for `registerTool`'s handler. */
export interface DefinedTool<Args> {
  readonly definition: TypedToolDefinition<Args>
}

/**
 * Define a tool, in either of two forms; both land in the same registry.
 *
 * Design 000's form, `defineTool({ type: 'function', function: { name, description, parameters }, ui })`, checks
 * the definition and returns `{ definition }` for `registerTool(definition, handler)`, whose handler's arguments
 * are typed from `parameters` (no `as const` needed). Given a handler as well, `defineTool(definition, handler)`
 * is also a tool plugin a file in `plugins/` can default-export.
 *
 * The plugin-file form, `defineTool({ name, description, parameters, handler, ... })`, returns a tool plugin.
 * The handler's arguments are typed from `parameters`: `z.output<schema>` for a zod schema (sent to the model as
 * draft-07 JSON Schema, and the arguments are parsed by zod before the handler runs, so defaults and transforms
 * apply), or `FromSchema<schema>` for a JSON Schema.
 * @throws InvalidToolDefinitionError when the design form's definition is invalid
 */
export function defineTool<const P extends ReadonlyJsonSchemaObject = { type: 'object', properties: {} }>(
  definition: DesignToolDefinition<P>,
): DefinedTool<InferToolArgs<P>>
export function defineTool<const P extends ReadonlyJsonSchemaObject = { type: 'object', properties: {} }>(
  definition: DesignToolDefinition<P>,
  handler: (args: InferToolArgs<P>, context: ToolExecutionContext) => unknown,
): DefinedTool<InferToolArgs<P>> & ToolPlugin
export function defineTool<const P extends ToolParameters = { type: 'object', properties: {} }, R = unknown>(
  options: DefineToolOptions<P, R>,
): ToolPlugin<InferToolArgs<P>, Awaited<R>>
export function defineTool(input: DefineToolOptions<ToolParameters> | RegisterableToolDefinition, handler?: ToolHandler): DefinedTool<unknown> | ToolPlugin {
  if (isDesignForm(input)) {
    // checked now, so a mistake is reported where the tool is written rather than when it registers
    normalizeToolDefinition(input)
    const definition = input as TypedToolDefinition<unknown>
    if (handler === undefined) return { definition }
    if (typeof handler !== 'function') throw new TypeError(`Tool "${input.function.name}": the handler must be a function (got ${typeof handler})`)
    return { kind: 'plugboard.tool', definition, handler }
  }
  return definePluginTool(input)
}

/** What zod's schemas carry under `~standard` (the Standard JSON Schema interface). */
interface StandardJsonSchemaConverter {
  input: (options: { target: 'draft-07' }) => Record<string, unknown>
}

/**
 * The schema's input as draft-07 JSON Schema, through the converter the schema carries itself (Standard JSON
 * Schema, which zod's classic schemas implement): importing zod's converter here would put zod in the page's
 * first load although no built-in tool uses zod.
 * @throws InvalidToolDefinitionError for a zod schema without a converter (zod/mini: pass `z.toJSONSchema(schema)`)
 */
function zodInputJsonSchema(name: string, parameters: $ZodType): JsonSchemaObject {
  const converter = (parameters['~standard'] as { jsonSchema?: StandardJsonSchemaConverter }).jsonSchema
  if (typeof converter?.input !== 'function') {
    throw new InvalidToolDefinitionError(name, 'parameters', 'is a zod schema that cannot describe itself as JSON Schema (use `z` from zod, or pass `z.toJSONSchema(schema)`)')
  }
  const { $schema: _dropped, ...schema } = converter.input({ target: 'draft-07' })
  return schema as JsonSchemaObject
}

function isDesignForm(input: object): input is RegisterableToolDefinition {
  return (input as { type?: unknown }).type === 'function' && typeof (input as { function?: unknown }).function === 'object'
}

function definePluginTool<P extends ToolParameters>(options: DefineToolOptions<P>): ToolPlugin {
  const { name, description, parameters, ui, icon, category, defaultEnabled, timeoutMs, available, unavailableReason, strict, sandbox, catalog, actsOutsideApp, approval, connects } = options
  // checked where the tool is written: the build reads these into the page's policy
  checkDeclaredOrigins(name, connects)
  // a handler called without the executor (a test, the sandbox worker) still gets its fetch
  const handler = (args: InferToolArgs<P>, context: ToolExecutionContext) =>
    options.handler(args, context.fetch ? context as PluginToolContext : { ...context, fetch: lazyToolFetch(context.signal) })
  let jsonSchema: JsonSchemaObject | undefined
  let run: ToolPlugin['handler'] = handler as ToolPlugin['handler']
  if (isZodSchema(parameters)) {
    jsonSchema = zodInputJsonSchema(name, parameters)
    run = async (args, context) => {
      const parsed = await parameters['~standard'].validate(args)
      if (parsed.issues) {
        throw new Error(`Invalid arguments: ${parsed.issues.map(issue => `${issue.path?.join('.') || '(root)'}: ${issue.message}`).join('; ')}`)
      }
      return handler(parsed.value as InferToolArgs<P>, context)
    }
  }
  else if (parameters !== undefined) {
    jsonSchema = parameters as JsonSchemaObject
  }
  const definition: RegisterableToolDefinition = {
    type: 'function',
    function: {
      name,
      ...(description !== undefined && { description }),
      ...(jsonSchema !== undefined && { parameters: jsonSchema }),
      ...(strict !== undefined && { strict }),
    },
    ...(ui !== undefined && { ui }),
    ...(icon !== undefined && { icon }),
    ...(category !== undefined && { category }),
    ...(defaultEnabled !== undefined && { defaultEnabled }),
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(available !== undefined && { available }),
    ...(unavailableReason !== undefined && { unavailableReason }),
    ...(sandbox !== undefined && { sandbox }),
    ...(actsOutsideApp !== undefined && { actsOutsideApp }),
    ...(approval !== undefined && { approval }),
    ...(catalog !== undefined && { catalog }),
    ...(connects !== undefined && { connects }),
  }
  return { kind: 'plugboard.tool', definition, handler: run }
}

/** True for a value made by `defineTool` (also across duplicated module copies). */
export function isToolPlugin(value: unknown): value is ToolPlugin {
  return typeof value === 'object' && value !== null && (value as ToolPlugin).kind === 'plugboard.tool'
    && typeof (value as ToolPlugin).handler === 'function' && typeof (value as ToolPlugin).definition === 'object'
}
