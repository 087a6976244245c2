// Auto-imported by Nuxt (utils/*/index.ts). Plugins use ./plugin-api instead.
export { createToolRegistry } from './tool-registry'
export type { CreateToolRegistryOptions } from './tool-registry'
export { getToolRegistry, useToolRegistrySingleton } from './registry/tool-registry-singleton'
export type {
  RegisterableToolDefinition, RegisteredTool, RegisterToolOptions, ToolAvailability, ToolAvailabilityContext,
  ToolRegistry, ToolStates, ToolUiMetadata,
} from './registry/tool-registry-types'
export { defineTool } from '#shared/tools/definition/define-tool'
export type { ToolPlugin } from '#shared/tools/definition/define-tool'
export { loadToolPlugins } from './registry/load-tool-plugins'
export { toolPluginsReady } from './registry/tool-plugins-ready'
export { TOOL_STATES_STORAGE_KEY } from './registry/tool-state-storage'
export { DuplicateToolError } from './registry/errors/duplicate-tool-error'
export { InvalidToolDefinitionError } from '#shared/errors/invalid-tool-definition-error'
