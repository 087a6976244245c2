import type { ModelMessage } from '#shared/types/chat'

/** Longest context one app may add to the model's requests (characters). */
export const MAX_MCP_APP_CONTEXT_CHARS = 8_000

/** Per chat, per app (its call id): what each app last asked the model to know. Kept for this tab's session. */
const contexts = new Map<string, Map<string, { label: string, text: string }>>()

/** Sets (empty text: clears) what an app adds to the chat's next requests. */
export function setMcpAppModelContext(threadId: string, callId: string, label: string, text: string): void {
  let chat = contexts.get(threadId)
  if (!chat) contexts.set(threadId, chat = new Map())
  if (text.trim() === '') chat.delete(callId)
  else chat.set(callId, { label, text: text.slice(0, MAX_MCP_APP_CONTEXT_CHARS) })
}

/**
 * The apps' context for a request of this chat, as one message after the history (never stored), or undefined.
 * Sent as a user message: it is what the user's app shows, which the model should read but not take as orders.
 */
export function mcpAppModelContextMessage(threadId: string): ModelMessage | undefined {
  const chat = contexts.get(threadId)
  if (!chat || chat.size === 0) return undefined
  const parts = [...chat.values()].map(({ label, text }) => `[What the app ${label} shows the user now]\n${text}`)
  return { role: 'user', content: parts.join('\n\n') }
}
