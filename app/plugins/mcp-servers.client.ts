import { getMcpServerManager } from '~/utils/chat/mcp/mcp-server-manager-singleton'

/**
 * Connects the MCP servers saved in Settings once the tool plugins are registered (so a plugin's name is never
 * taken by a server's tool). Their tools join the registry as each server answers; nothing waits for them.
 */
export default defineNuxtPlugin({
  name: 'plugboard:mcp-servers',
  dependsOn: ['plugboard:tool-plugins'],
  setup(nuxtApp) {
    const ready = (nuxtApp.$toolPluginsReady as Promise<unknown> | undefined) ?? Promise.resolve()
    void ready.catch(() => {}).then(() => getMcpServerManager().start())
  },
})
