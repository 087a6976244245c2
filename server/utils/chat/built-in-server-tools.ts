// The hybrid tools are the browser's own plugin files: the same code runs in the tab and here. They import only
// `~/utils/chat/plugin-api` (defineTool, no window or DOM at load), and Nuxt gives Nitro its `~`/`~~` aliases.
import calculate from '~~/plugins/calculate'
import getCurrentTime from '~~/plugins/get-current-time'
import { parseAllowedHosts } from '../net/allowed-hosts'
import { registerServerTool } from './tool-registry'
import { createFetchWebPageHandler, fetchWebPageDefinition } from './tools/fetch-web-page'

export interface BuiltInServerToolsOptions {
  /** `NUXT_FETCH_ALLOWED_HOSTS`: hosts fetch_web_page may reach although they are not public. */
  fetchAllowedHosts?: unknown
}

/**
 * Registers the tools every server has: `calculate` and `get_current_time` (hybrid) and `fetch_web_page` (server
 * only). With `override`, so a dev-server reload that runs the Nitro plugin again replaces them instead of failing.
 * Returns a function that unregisters them.
 */
export function registerBuiltInServerTools(options: BuiltInServerToolsOptions = {}): () => void {
  const disposers = [
    registerServerTool(calculate.definition, calculate.handler, { runtime: 'hybrid', override: true }),
    registerServerTool(getCurrentTime.definition, getCurrentTime.handler, { runtime: 'hybrid', override: true }),
    registerServerTool(fetchWebPageDefinition, createFetchWebPageHandler({ allowedHosts: parseAllowedHosts(options.fetchAllowedHosts) }), { override: true }),
  ]
  return () => disposers.forEach(dispose => dispose())
}
