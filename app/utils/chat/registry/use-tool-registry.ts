import type { InjectionKey } from 'vue'
import { hasInjectionContext, inject } from 'vue'
import { getToolRegistry } from './tool-registry-singleton'
import type { ToolRegistry } from './tool-registry-types'

/** Provide another registry to a subtree (tests, previews): `provide(toolRegistryKey, createToolRegistry())`. */
export const toolRegistryKey: InjectionKey<ToolRegistry> = Symbol('plugboard.toolRegistry')

/**
 * The tool registry (design 000's `useToolRegistry`): the provided one inside components, else the app's
 * singleton, so it also works in a Nuxt plugin or at a module's top level
 * (`export const registerTool = useToolRegistry().registerTool`).
 * `tools` (same as `listTools()`) is reactive and in registration order; each tool's `enabled` and `lastError`
 * are refs.
 */
export function useToolRegistry() {
  const registry = (hasInjectionContext() ? inject(toolRegistryKey, null) : null) ?? getToolRegistry()
  return {
    tools: registry.listTools(),
    listTools: registry.listTools,
    registerTool: registry.registerTool,
    unregisterTool: registry.unregisterTool,
    getTool: registry.getTool,
    setEnabled: registry.setEnabled,
    getEnabledDefinitions: registry.getEnabledDefinitions,
    registry,
  }
}
