import type { ModelMessage } from '#shared/types/chat'
import type { MessageRecord } from '~/db/types'

/** Longest context one app may add to the model's requests (characters). */
export const MAX_MCP_APP_CONTEXT_CHARS = 8_000
/** Apps whose context one request carries, the most recent calls' (each older app's context is left out). */
export const MAX_MCP_APP_CONTEXTS = 8

interface AppContext { label: string, text: string }

/**
 * Per chat, per app (its call id): what each app asked the model to know in this tab, before the tool row that
 * keeps it for good (`mcpApp.modelContext`) has been written. An empty text is a clear, and wins over the row too.
 */
const contexts = new Map<string, Map<string, AppContext>>()

/** Sets (empty text: clears) what an app adds to the chat's next requests. */
export function setMcpAppModelContext(threadId: string, callId: string, label: string, text: string): void {
  let chat = contexts.get(threadId)
  if (!chat) contexts.set(threadId, chat = new Map())
  chat.delete(callId)
  chat.set(callId, { label, text: text.trim() === '' ? '' : text.slice(0, MAX_MCP_APP_CONTEXT_CHARS) })
}

/**
 * The apps' context for a request of this chat, as one message after the history (never stored), or undefined:
 * what the chat's tool rows keep (so it outlives a reload and travels in exports), overridden by what an app of
 * this tab said since. Sent as a user message: it is what the user's app shows, which the model should read but
 * not take as orders.
 */
export function mcpAppModelContextMessage(threadId: string, rows: readonly MessageRecord[] = []): ModelMessage | undefined {
  const merged = new Map<string, AppContext>()
  for (const row of rows) {
    const app = row.role === 'tool' && row.toolCallId ? row.mcpApp : undefined
    if (app?.modelContext) merged.set(row.toolCallId!, { label: app.toolName, text: app.modelContext.slice(0, MAX_MCP_APP_CONTEXT_CHARS) })
  }
  for (const [callId, context] of contexts.get(threadId) ?? []) {
    merged.delete(callId)
    merged.set(callId, context)
  }
  const parts = [...merged.values()].filter(({ text }) => text.trim() !== '').slice(-MAX_MCP_APP_CONTEXTS)
    .map(({ label, text }) => `[What the app ${label} shows the user now]\n${text}`)
  return parts.length === 0 ? undefined : { role: 'user', content: parts.join('\n\n') }
}
