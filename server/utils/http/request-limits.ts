/**
 * Limits on what a request may ask of the server. A body is refused before it is buffered past its limit, and
 * the counts inside a chat request are capped, so no single request can hold the server's memory or event loop.
 */

/** Default body limit of the model routes (chat requests carry the whole history). */
export const DEFAULT_CHAT_BODY_LIMIT_BYTES = 2 * 1024 * 1024

/**
 * Default body limit of the routes that carry images to a model (the OpenRouter proxy, POST /api/chats): every
 * request of a chat carries each of its images again as base64, and a few resized photos take several MB. The
 * demo route keeps the chat limit (the demo reads no images).
 */
export const DEFAULT_IMAGE_CHAT_BODY_LIMIT_BYTES = 12 * 1024 * 1024

/** Body limit of every other /api route (sign-in, settings): they never need more. */
export const SMALL_BODY_LIMIT_BYTES = 16 * 1024

/** Body limit of the server tool routes: a tool's arguments as a model wrote them, with room for long text. */
export const TOOL_BODY_LIMIT_BYTES = 256 * 1024

/** Most messages a chat request may carry (a very long chat; the body limit usually bites first). */
export const MAX_CHAT_MESSAGES = 2_000

/** Most tools a chat request may offer: OpenAI's own limit. */
export const MAX_CHAT_TOOLS = 128

/** Most tools a chat with tool search may switch on: the model is offered a few of them per step. */
export const MAX_SEARCHED_TOOLS = 1_024

/**
 * The chat body limit configured by the operator (`NUXT_MAX_BODY_BYTES`), or the default.
 * Nonsense (not a positive integer) falls back to the default rather than to "unlimited".
 */
export function chatBodyLimitBytes(configured: unknown): number {
  const value = Number(configured)
  return Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_CHAT_BODY_LIMIT_BYTES
}

/** The image chat body limit configured by the operator (`NUXT_MAX_IMAGE_BODY_BYTES`), never below the chat limit. */
export function imageChatBodyLimitBytes(configured: unknown, chatLimit: number): number {
  const value = Number(configured)
  return Math.max(chatLimit, Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_IMAGE_CHAT_BODY_LIMIT_BYTES)
}

/** "2 MB", "16 KB", "512 bytes": limits as people read them. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`
  return `${bytes} bytes`
}
