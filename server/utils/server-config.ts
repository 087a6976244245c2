import type { ServerConfig } from '../../app/utils/chat/provider-types'
import { withoutCredentials } from './openrouter-proxy'

/** The runtimeConfig fields `buildServerConfig` reads (a subset of Nuxt's runtimeConfig). */
export interface ServerConfigSource {
  openrouterApiKey?: string
  openrouterBaseUrl?: string
  public?: { defaultModel?: string }
}

/**
 * GET /api/config's body: whether the server holds a key (never the key), the default model and the API
 * base (without any user:password it might carry).
 */
export function buildServerConfig(config: ServerConfigSource): ServerConfig {
  return {
    serverKey: typeof config.openrouterApiKey === 'string' && config.openrouterApiKey.trim() !== '',
    defaultModel: config.public?.defaultModel || 'openai/gpt-4o-mini',
    openrouterBaseUrl: withoutCredentials(config.openrouterBaseUrl || 'https://openrouter.ai/api/v1'),
  }
}
