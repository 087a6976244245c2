import { MAX_CHAT_MESSAGES, MAX_CHAT_TOOLS } from './http/request-limits'

/** What the operator allows on the server's key (`NUXT_OPENROUTER_MODELS`, `NUXT_OPENROUTER_MAX_TOKENS`). */
export interface OpenRouterPolicy {
  /** Model ids the proxy accepts; empty means any. */
  allowedModels: string[]
  /** Cap on the tokens one reply may use; 0 means none. */
  maxTokens: number
}

/** The policy from runtimeConfig values: the list is split on commas, spaces or newlines; nonsense caps mean none. */
export function readOpenRouterPolicy(config: { openrouterModels?: unknown, openrouterMaxTokens?: unknown }): OpenRouterPolicy {
  const models = Array.isArray(config.openrouterModels) ? config.openrouterModels.join(',') : String(config.openrouterModels ?? '')
  const maxTokens = Number(config.openrouterMaxTokens)
  return {
    allowedModels: [...new Set(models.split(/[\s,]+/).map(model => model.trim()).filter(Boolean))],
    maxTokens: Number.isSafeInteger(maxTokens) && maxTokens > 0 ? maxTokens : 0,
  }
}

/** A request the policy refuses: the status and message the browser gets. */
export class OpenRouterPolicyError extends Error {
  override readonly name = 'OpenRouterPolicyError'
  constructor(readonly statusCode: 400 | 403, message: string) {
    super(message)
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function clamp(value: unknown, cap: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(Math.floor(value), cap) : cap
}

/**
 * A chat request made to fit the operator's policy, or an OpenRouterPolicyError: counts of messages and tools
 * are capped, every model it names (`model`, and OpenRouter's fallback list `models`) must be allowed, one
 * choice only (`n` multiplies the cost), and token limits (`max_tokens`, `max_completion_tokens`,
 * `reasoning.max_tokens`) are lowered to the cap and set to it when absent.
 */
export function applyOpenRouterPolicy(body: unknown, policy: OpenRouterPolicy): Record<string, unknown> {
  if (!isObject(body)) throw new OpenRouterPolicyError(400, 'The request body must be a JSON object.')
  if (!Array.isArray(body.messages)) throw new OpenRouterPolicyError(400, 'The request must carry a messages array.')
  if (body.messages.length > MAX_CHAT_MESSAGES) {
    throw new OpenRouterPolicyError(400, `The request carries ${body.messages.length} messages; at most ${MAX_CHAT_MESSAGES} are accepted. Start a new chat.`)
  }
  if (body.tools !== undefined && (!Array.isArray(body.tools) || body.tools.length > MAX_CHAT_TOOLS)) {
    const count = Array.isArray(body.tools) ? `${body.tools.length} tools` : 'tools that are not an array'
    throw new OpenRouterPolicyError(400, `The request offers ${count}; at most ${MAX_CHAT_TOOLS} are accepted.`)
  }
  if (body.n !== undefined && body.n !== 1) throw new OpenRouterPolicyError(400, 'Only one choice per request (n = 1) is allowed on this server.')

  const named = [body.model, ...(Array.isArray(body.models) ? body.models : body.models === undefined ? [] : [body.models])]
  if (typeof body.model !== 'string' || !body.model) throw new OpenRouterPolicyError(400, 'The request must name a model.')
  if (policy.allowedModels.length > 0) {
    const refused = named.find(model => typeof model !== 'string' || !policy.allowedModels.includes(model))
    if (refused !== undefined) {
      throw new OpenRouterPolicyError(403, `The model ${JSON.stringify(refused).slice(0, 120)} is not allowed on this server. Allowed: ${policy.allowedModels.join(', ')}.`)
    }
  }
  if (policy.maxTokens === 0) return body

  const capped: Record<string, unknown> = { ...body, max_tokens: clamp(body.max_tokens ?? body.max_completion_tokens, policy.maxTokens) }
  if (body.max_completion_tokens !== undefined) capped.max_completion_tokens = clamp(body.max_completion_tokens, policy.maxTokens)
  if (isObject(body.reasoning) && body.reasoning.max_tokens !== undefined) {
    capped.reasoning = { ...body.reasoning, max_tokens: clamp(body.reasoning.max_tokens, policy.maxTokens) }
  }
  return capped
}

/** OpenRouter's model list (`{ data: [{ id }] }`) narrowed to the allowed models; other shapes pass unchanged. */
export function filterModelList(list: unknown, policy: OpenRouterPolicy): unknown {
  if (policy.allowedModels.length === 0 || !isObject(list) || !Array.isArray(list.data)) return list
  return { ...list, data: list.data.filter(model => isObject(model) && policy.allowedModels.includes(String(model.id))) }
}
