import type { ServerConfig } from '#shared/types/server-config'
import { readOpenRouterPolicy } from './openrouter-policy'

/** The runtimeConfig fields `buildServerConfig` reads (a subset of Nuxt's runtimeConfig). */
export interface ServerConfigSource {
  openrouterApiKey?: string
  openrouterModels?: unknown
  openrouterMaxTokens?: unknown
  public?: { defaultModel?: string }
  sync?: unknown
}

/**
 * GET /api/config's body: whether the server holds a key (never the key), the default model, and the operator's
 * limits on the key (allowed models, token cap) so the model picker shows only what will be accepted. The
 * upstream base URL is not included: it may name an internal host.
 */
export function buildServerConfig(config: ServerConfigSource): ServerConfig {
  const policy = readOpenRouterPolicy(config)
  const configuredDefault = config.public?.defaultModel || 'openai/gpt-4o-mini'
  const defaultModel = policy.allowedModels.length === 0 || policy.allowedModels.includes(configuredDefault) ? configuredDefault : policy.allowedModels[0]!
  return {
    serverKey: typeof config.openrouterApiKey === 'string' && config.openrouterApiKey.trim() !== '',
    defaultModel,
    allowedModels: policy.allowedModels,
    maxTokens: policy.maxTokens,
    // Only when on: a server without sync says nothing new.
    ...(['1', 'true', 'on'].includes(String(config.sync ?? '').trim().toLowerCase()) ? { sync: true } : {}),
  }
}
