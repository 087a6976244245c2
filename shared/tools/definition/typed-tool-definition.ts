import type { ToolFunctionInput } from '../../types/chat'
import type { RegisterableToolDefinition } from './tool-definition-types'

/**
 * A JSON Schema object as TypeScript infers it from a literal under a `const` type parameter (readonly arrays),
 * so `required: ['city']` stays the tuple `['city']` and the handler's `city` is required.
 */
export interface ReadonlyJsonSchemaObject {
  readonly type: 'object'
  readonly properties?: { readonly [name: string]: unknown }
  readonly required?: readonly string[]
  readonly [keyword: string]: unknown
}

/** Design 000's definition: the OpenAI function tool plus `ui` and the other optional metadata. */
export type DesignToolDefinition<P extends ReadonlyJsonSchemaObject> = Omit<RegisterableToolDefinition, 'function'> & {
  function: Omit<ToolFunctionInput, 'parameters'> & { parameters?: P }
}

declare const toolArguments: unique symbol

/**
 * A definition made by `defineTool`, carrying its handler's argument type (a type-only brand, nothing at run time)
 * so `registerTool(definition, handler)` types the handler. A plain definition types its handler's arguments `any`.
 */
export type TypedToolDefinition<Args> = RegisterableToolDefinition & { readonly [toolArguments]?: (args: Args) => void }

/** The handler's argument type of a definition: from `defineTool`'s brand, else `any`. */
export type ToolArgumentsOf<D> = typeof toolArguments extends keyof D
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a plain definition's handler takes what the model sent
  ? D extends { readonly [toolArguments]?: (args: infer Args) => void } ? Args : any
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  : any
