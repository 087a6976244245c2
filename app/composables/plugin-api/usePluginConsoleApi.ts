import { h, onMounted } from 'vue'
import { getToolRegistry } from '~/utils/chat/registry/tool-registry-singleton'
import { registerToolCard } from '~/utils/chat/tool-cards/tool-card-registry'
import { toolPluginsReady } from '~/utils/chat/registry/tool-plugins-ready'
import { deferredMountsDone } from '~/utils/chat/message-list/deferred-mounts'

/**
 * Once the page is mounted: `window.plugboard`, a console API for plugin authors (and the browser tests) to register
 * a tool, or a tool's card (built with `h`), without a file; then, when the tool plugins are in and the deferred
 * parts of the first screen are mounted, the `plugboard:ready` mark and `window.__plugboardReady`.
 */
export function usePluginConsoleApi() {
  onMounted(async () => {
    const registry = getToolRegistry()
    Object.assign(window, {
      plugboard: { registerTool: registry.registerTool, unregisterTool: registry.unregisterTool, setEnabled: registry.setEnabled, registry, registerToolCard, h },
    })
    await Promise.all([toolPluginsReady(), deferredMountsDone()])
    // the moment the first screen is ready for input, for the first-load budget (what was fetched before it)
    performance.mark('plugboard:ready')
    Object.assign(window, { __plugboardReady: true })
  })
}
