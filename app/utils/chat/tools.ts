/**
 * The plugin-facing API of design 000, as named there: `registerTool`, `unregisterTool`, `defineTool`, `listTools`,
 * `useToolRegistry` and the types. Each function works the same from a Nuxt plugin, a component (a tool
 * registered during setup or `onMounted` is unregistered on unmount) or `onScopeDispose`. Client only: on the
 * server the registry is empty and `registerTool` does nothing but warn once.
 * Files in `plugins/` may import from here or from `./plugin-api` (which re-exports this module and `z`).
 */
import type { ComputedRef } from 'vue'
import type { ToolHandler } from '#shared/tools/tool-types'
import { getToolRegistry } from './registry/tool-registry-singleton'
import type { RegisterableToolDefinition, RegisteredTool, RegisterToolOptions } from './registry/tool-registry-types'
import type { ToolArgumentsOf } from '#shared/tools/definition/typed-tool-definition'

export { defineTool } from '#shared/tools/definition/define-tool'
export type { DefinedTool, DefineToolOptions, InferToolArgs, ToolParameters, ToolPlugin } from '#shared/tools/definition/define-tool'
export { useToolRegistry, toolRegistryKey } from './registry/use-tool-registry'
export type { RunToolForTestOptions, ToolTestResult } from './registry/run-tool-for-test'
export type { FromSchema } from '#shared/tools/definition/json-schema-type'
export type { DesignToolDefinition, ReadonlyJsonSchemaObject, ToolArgumentsOf, TypedToolDefinition } from '#shared/tools/definition/typed-tool-definition'
export type {
  RegisterableToolDefinition, RegisteredTool, RegisteredToolDefinition, RegisterToolOptions, ResolvedToolUi,
  ToolAvailability, ToolAvailabilityContext, ToolRegistry, ToolSandbox, ToolUiMetadata,
} from './registry/tool-registry-types'
export type { PluginToolContext, ToolExecutionContext, ToolFetch, ToolHandler } from '#shared/tools/tool-types'
export type { ToolDefinition } from '#shared/types/chat'
export { registerToolCard } from './tool-cards/tool-card-registry'
export type { ToolCardProps, ToolCardPropsOf } from './tool-cards/tool-card-registry'
export { DuplicateToolError } from './registry/errors/duplicate-tool-error'
export { InvalidToolDefinitionError } from '#shared/errors/invalid-tool-definition-error'

/**
 * Register a tool with the app's registry. `opts.enabled` wins over the user's saved choice, which wins over
 * `definition.ui.defaultEnabled` (default true). Returns a disposer; inside a component's setup or hooks the tool
 * is also unregistered on unmount.
 * @throws DuplicateToolError when the name is taken and `override` is not set
 * @throws InvalidToolDefinitionError when the definition is invalid
 */
export function registerTool<D extends RegisterableToolDefinition>(
  definition: D,
  handler: ToolHandler<ToolArgumentsOf<D>>,
  options?: RegisterToolOptions,
): () => void {
  return getToolRegistry().registerTool(definition, handler, options)
}

/**
 * Unregister a tool by name. Returns true when one was removed. The user's saved on/off choice is kept, so a tool
 * that registers again (hot reload, a plugin loaded later) comes back as the user left it.
 */
export function unregisterTool(name: string): boolean {
  return getToolRegistry().unregisterTool(name)
}

/** Every registered tool, in registration order: a computed list that follows registrations and switches. */
export function listTools(): ComputedRef<readonly RegisteredTool[]> {
  return getToolRegistry().listTools()
}

/**
 * Runs one call of a tool the way a chat does (see `run-tool-for-test.ts`). The executor and the argument validator
 * are loaded on the first call: every plugin file imports this module, and the page's first load should not carry
 * what only tests and tool runs need.
 * @throws InvalidToolDefinitionError when the definition is invalid, as `registerTool` would
 */
export const runToolForTest = (async (...args: Parameters<typeof import('./registry/run-tool-for-test').runToolForTest>) =>
  (await import('./registry/run-tool-for-test')).runToolForTest(...args)) as typeof import('./registry/run-tool-for-test').runToolForTest
