import type { ToolCallMode } from '#shared/loop/loop-types'

/**
 * - demo: the offline scripted model served by this app (/api/demo/v1)
 * - openrouter: OpenRouter, with the server's key through /api/openrouter (keySource 'server')
 *   or the user's own key straight from the browser (keySource 'user')
 * - openai-compatible: any OpenAI-compatible endpoint (Ollama, LM Studio, llama.cpp, vLLM)
 */
export type ProviderId = 'demo' | 'openrouter' | 'openai-compatible'

export interface ProviderSettings {
  version: 1
  providerId: ProviderId
  openrouter: { keySource: 'server' | 'user', apiKey: string, model: string }
  openaiCompatible: {
    baseUrl: string
    apiKey: string
    model: string
    toolCallMode: ToolCallMode
    /** The endpoint's model reads text only: images attached to messages are not sent (a note says so). */
    textOnly?: boolean
  }
}

export type { ServerConfig } from '#shared/types/server-config'
