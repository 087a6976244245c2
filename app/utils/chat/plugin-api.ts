/**
 * Everything a tool plugin needs, from one module. Files in `plugins/` import from here only
 * (`import { defineTool } from '~/utils/chat/plugin-api'`), so the registry's insides can change freely.
 */
import type { ToolHandler } from '#shared/tools/tool-types'
import { getToolRegistry } from './tool-registry-singleton'
import type { RegisterableToolDefinition, RegisterToolOptions } from './tool-registry-types'

export { defineTool } from './define-tool'
export type { DefineToolOptions, InferToolArgs, ToolParameters, ToolPlugin } from './define-tool'
export type { FromSchema } from './json-schema-type'
export type {
  RegisterableToolDefinition, RegisteredTool, RegisterToolOptions, ToolAvailability, ToolAvailabilityContext,
  ToolUiMetadata,
} from './tool-registry-types'
export type { ToolExecutionContext, ToolHandler } from '#shared/tools/tool-types'
export { DuplicateToolError } from './errors/duplicate-tool-error'
export { InvalidToolDefinitionError } from './errors/invalid-tool-definition-error'
export { z } from 'zod'

/**
 * Register a tool with the app's registry. Client only: on the server it does nothing, returns a no-op
 * disposer and warns once. Inside a component's setup the tool is unregistered on unmount.
 * @throws DuplicateToolError when the name is taken and `override` is not set
 * @throws InvalidToolDefinitionError when the definition is invalid
 */
export function registerTool(definition: RegisterableToolDefinition, handler: ToolHandler, options?: RegisterToolOptions): () => void {
  return getToolRegistry().registerTool(definition, handler, options)
}
