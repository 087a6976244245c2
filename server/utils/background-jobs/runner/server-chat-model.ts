import type { ChatModel } from '#shared/loop/chat-model'
import { createOpenAICompatibleModel } from '#shared/stream/openai-compatible-model'
import { applyOpenRouterPolicy, OpenRouterPolicyError } from '../../openrouter-policy'
import type { OpenRouterPolicy } from '../../openrouter-policy'
import { buildOpenRouterUpstreamHeaders } from '../../openrouter-proxy'
import { createDemoChatModel, isDemoModel } from '../../demo-model/demo-chat-model'

export interface ServerChatModelOptions {
  apiKey: string
  baseUrl: string
  model: string
  /** The operator's policy; left out for the user's own key (the user pays, as in the tab). */
  policy?: OpenRouterPolicy
  appUrl?: string
  appTitle?: string
}

/**
 * A ChatModel on OpenRouter with the server's key, for chats the server runs (the offline demo for `plugboard/demo`). Every request passes the same
 * operator policy as the proxy route (checkOpenRouterBody: allowed fields and models, paid options, token cap, counts); a refusal comes back as the HTTP error
 * the proxy would have answered, so the loop reports it like any provider error.
 */
export function createServerChatModel(options: ServerChatModelOptions): ChatModel {
  // The demo is answered in this process: no key, no upstream, nothing billed.
  if (isDemoModel(options.model)) return createDemoChatModel()
  const headers = buildOpenRouterUpstreamHeaders({ apiKey: options.apiKey, appUrl: options.appUrl, appTitle: options.appTitle, hasBody: true })
  return createOpenAICompatibleModel({
    baseURL: options.baseUrl,
    model: options.model,
    headers,
    fetch: async (input, init) => {
      // A redirect would carry the key's Authorization header to wherever it points.
      if (!options.policy) return fetch(input, { ...init, redirect: 'manual' })
      let body: string
      try {
        body = JSON.stringify(applyOpenRouterPolicy(JSON.parse(String(init?.body)), options.policy))
      }
      catch (error) {
        if (!(error instanceof OpenRouterPolicyError)) throw error
        // the refusal's code beside the provider-shaped error, as the proxy route's body carries it
        return new Response(JSON.stringify({ error: { message: error.message }, message: error.message, data: { code: error.text.code, params: error.text.params } }), { status: error.statusCode, headers: { 'content-type': 'application/json' } })
      }
      return fetch(input, { ...init, body, redirect: 'manual' })
    },
  })
}
