/** What the server tells the browser at start-up (GET /api/config). Never contains a key or an internal URL. */
export interface ServerConfig {
  /** Whether the server holds an OpenRouter key the browser may use through /api/openrouter. */
  serverKey: boolean
  /** The default OpenRouter model (one of `allowedModels` when the operator limited them). */
  defaultModel: string
  /** Models the server's key may be used with; empty when any model is allowed. */
  allowedModels: string[]
  /** The most tokens one reply may use on the server's key; 0 when there is no cap. */
  maxTokens: number
  /** Whether the server keeps a synced copy of the chats (`NUXT_SYNC`), so the browser syncs them. */
  sync?: boolean
}
