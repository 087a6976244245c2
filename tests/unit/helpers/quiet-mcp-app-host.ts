import type { McpAppHostOptions } from '~/utils/chat/mcp-apps/mcp-app-host'

/** The host callbacks of an MCP App test that watches something else: no tool runs, no message, no size or mode change. */
export const QUIET_HOST_CALLBACKS: Pick<McpAppHostOptions, 'callTool' | 'sendMessage' | 'updateModelContext' | 'onSize' | 'onDisplayMode'> = {
  callTool: async () => ({ content: [] }),
  sendMessage: async () => true,
  updateModelContext: () => {},
  onSize: () => {},
  onDisplayMode: mode => mode,
}
