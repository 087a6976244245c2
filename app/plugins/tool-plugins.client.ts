import { getToolRegistry } from '~/utils/chat/registry/tool-registry-singleton'
import { loadToolPlugins } from '~/utils/chat/registry/load-tool-plugins'
import { withServerTools } from '~/utils/chat/tool-set/server-tools'
import { setToolPluginsLoading } from '~/utils/chat/registry/tool-plugins-ready'
import { nextTask } from '~/utils/chat/scheduling/yield-to-page'
import { applyConnectOriginOverrides } from '~/utils/chat/registry/connect-origin-overrides'

/**
 * Registers the tool plugins of the root `plugins/` folder (one tool per file, found at build time), then the
 * server-only tools the server lists (after the plugins, so a plugin's name always wins).
 * The path is relative to this file: app/plugins/ → ../../plugins/ is the repository's plugins/.
 * Loading does not block start-up; useChat awaits `toolPluginsReady()` before the first send.
 */
export default defineNuxtPlugin({
  name: 'plugboard:tool-plugins',
  parallel: true,
  setup() {
    const modules = import.meta.glob('../../plugins/*.ts')
    const registry = getToolRegistry()
    const overrides = useRuntimeConfig().public.connectOriginOverrides
    // In a task of its own: asking for every plugin file (and its preloads) made the plugins after the database
    // opened one long task.
    // overrides first: no handler runs before the plugins are ready, so none fetches without them
    const loading = nextTask().then(() => applyConnectOriginOverrides(overrides)).then(() => loadToolPlugins(modules, registry)).then(result => withServerTools(result, registry))
    setToolPluginsLoading(loading)
    if (import.meta.hot) {
      // the registry lives on globalThis; drop this run's tools so the next run can register them again
      import.meta.hot.dispose(() => loading.then(result => result.dispose()))
    }
    return { provide: { toolPluginsReady: loading } }
  },
})
