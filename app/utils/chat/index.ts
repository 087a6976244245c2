// Auto-imported by Nuxt (utils/*/index.ts). Plugins use ./plugin-api instead.
export { createToolRegistry } from './tool-registry'
export type { CreateToolRegistryOptions } from './tool-registry'
export { getToolRegistry, useToolRegistrySingleton } from './tool-registry-singleton'
export type {
  RegisterableToolDefinition, RegisteredTool, RegisterToolOptions, ToolAvailability, ToolAvailabilityContext,
  ToolRegistry, ToolStates, ToolUiMetadata,
} from './tool-registry-types'
export { defineTool } from './define-tool'
export type { ToolPlugin } from './define-tool'
export { loadToolPlugins } from './load-tool-plugins'
export { toolPluginsReady } from './tool-plugins-ready'
export { TOOL_STATES_STORAGE_KEY } from './tool-state-storage'
export { DuplicateToolError } from './errors/duplicate-tool-error'
export { InvalidToolDefinitionError } from './errors/invalid-tool-definition-error'
