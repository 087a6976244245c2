import { registerBuiltInServerTools } from '../utils/chat/built-in-server-tools'

/**
 * Registers the server's tools at start-up (design 002's registration point). Plugin authors add theirs the same
 * way, in a Nitro plugin of their own: `registerServerTool(definition, handler, { runtime: 'server' })`.
 */
export default defineNitroPlugin(() => {
  registerBuiltInServerTools({ fetchAllowedHosts: useRuntimeConfig().fetchAllowedHosts })
})
