import type { InjectionKey } from 'vue'

/** What an MCP App on a card may do in the chat shown: send a user message (`ui/message`). */
export interface McpAppChat {
  threadId: () => string | undefined
  send: (text: string) => Promise<boolean>
}

/** Provided by the chat page, injected by the app cards. */
export const MCP_APP_CHAT: InjectionKey<McpAppChat> = Symbol('mcp-app-chat')
