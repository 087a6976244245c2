import { getToolRegistry } from '~/utils/chat/tool-registry-singleton'
import { loadToolPlugins } from '~/utils/chat/load-tool-plugins'
import { setToolPluginsLoading } from '~/utils/chat/tool-plugins-ready'

/**
 * Registers the tool plugins of the root `plugins/` folder (one tool per file, found at build time).
 * The path is relative to this file: app/plugins/ → ../../plugins/ is the repository's plugins/.
 * Loading does not block start-up; useChat awaits `toolPluginsReady()` before the first send.
 */
export default defineNuxtPlugin({
  name: 'plugboard:tool-plugins',
  parallel: true,
  setup() {
    const modules = import.meta.glob('../../plugins/*.ts')
    const loading = loadToolPlugins(modules, getToolRegistry())
    setToolPluginsLoading(loading)
    if (import.meta.hot) {
      // the registry lives on globalThis; drop this run's tools so the next run can register them again
      import.meta.hot.dispose(() => loading.then(result => result.dispose()))
    }
    return { provide: { toolPluginsReady: loading } }
  },
})
