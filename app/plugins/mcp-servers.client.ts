import { MCP_SERVERS_STORAGE_KEY } from '~/utils/chat/mcp/mcp-server-settings'
import { MCP_OAUTH_CALLBACK_PATH } from '#shared/mcp/oauth/mcp-oauth-callback-path'

/** Whether Settings saved any MCP server (reading storage can throw when the browser blocks it). */
function hasSavedServers(): boolean {
  try {
    const saved = window.localStorage.getItem(MCP_SERVERS_STORAGE_KEY)
    return saved !== null && saved.trim() !== '[]'
  }
  catch {
    return false
  }
}

/**
 * Connects the MCP servers saved in Settings once the tool plugins are registered (so a plugin's name is never
 * taken by a server's tool). Their tools join the registry as each server answers; nothing waits for them.
 * The MCP client is loaded only when a server is saved: most first screens have none.
 */
export default defineNuxtPlugin({
  name: 'plugboard:mcp-servers',
  dependsOn: ['plugboard:tool-plugins'],
  setup(nuxtApp) {
    // the sign-in popup's callback only hands its answer over: connecting there would start a new sign-in
    if (!hasSavedServers() || window.location.pathname === MCP_OAUTH_CALLBACK_PATH) return
    const ready = (nuxtApp.$toolPluginsReady as Promise<unknown> | undefined) ?? Promise.resolve()
    void ready.catch(() => {})
      .then(() => import('~/utils/chat/mcp/mcp-server-manager-singleton'))
      .then(({ getMcpServerManager }) => getMcpServerManager().start())
      .catch(error => console.error('Could not connect the saved MCP servers:', error))
  },
})
