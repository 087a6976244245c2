import type { InjectionKey } from 'vue'
import { hasInjectionContext, inject } from 'vue'
import { getToolRegistry } from '~/utils/chat/tool-registry-singleton'
import type { ToolRegistry } from '~/utils/chat/tool-registry-types'

/** Provide another registry to a subtree (tests, previews): `provide(toolRegistryKey, createToolRegistry())`. */
export const toolRegistryKey: InjectionKey<ToolRegistry> = Symbol('plugboard.toolRegistry')

/**
 * The tool registry for components: the provided one, else the app's singleton.
 * `tools` is reactive and in registration order; each tool's `enabled` and `lastError` are reactive too.
 */
export function useToolRegistry() {
  const registry = (hasInjectionContext() ? inject(toolRegistryKey, null) : null) ?? getToolRegistry()
  return {
    tools: registry.listTools,
    setEnabled: registry.setEnabled,
    getEnabledDefinitions: registry.getEnabledDefinitions,
    registerTool: registry.registerTool,
    registry,
  }
}
