import { checkOpenRouterBody } from './openrouter-body-policy'
import { isRecord } from '#shared/types/is-record'
import type { CodedText } from '#shared/errors/coded-text'

/** What the operator allows on the server's key (`NUXT_OPENROUTER_*`, README "Configuration"). */
export interface OpenRouterPolicy {
  /** Model ids the proxy accepts; empty means any. */
  allowedModels: string[]
  /** Cap on the tokens one reply may use; 0 means none. */
  maxTokens: number
  /** Web search (`plugins: [{ id: 'web' }]`, `web_search_options`, `:online` models), billed per request. @default false */
  allowWebSearch: boolean
  /** OpenRouter's `provider` routing object and `:nitro` models. @default false */
  allowProviderRouting: boolean
}

/** The fields of runtimeConfig the policy is read from. */
export interface OpenRouterPolicyConfig {
  openrouterModels?: unknown
  openrouterMaxTokens?: unknown
  openrouterAllowWebSearch?: unknown
  openrouterAllowProviderRouting?: unknown
}

/** A switch from runtimeConfig: on only when set to true (Nuxt reads `NUXT_...=true` as a boolean) or "true"/"1". */
function isOn(value: unknown): boolean {
  return value === true || (typeof value === 'string' && ['true', '1'].includes(value.trim().toLowerCase()))
}

/** The policy from runtimeConfig values: the list is split on commas, spaces or newlines; nonsense caps mean none. */
export function readOpenRouterPolicy(config: OpenRouterPolicyConfig): OpenRouterPolicy {
  const models = Array.isArray(config.openrouterModels) ? config.openrouterModels.join(',') : String(config.openrouterModels ?? '')
  const maxTokens = Number(config.openrouterMaxTokens)
  return {
    allowedModels: [...new Set(models.split(/[\s,]+/).map(model => model.trim()).filter(Boolean))],
    maxTokens: Number.isSafeInteger(maxTokens) && maxTokens > 0 ? maxTokens : 0,
    allowWebSearch: isOn(config.openrouterAllowWebSearch),
    allowProviderRouting: isOn(config.openrouterAllowProviderRouting),
  }
}

/** A request the policy refuses: the status and message the browser gets. */
export class OpenRouterPolicyError extends Error {
  override readonly name = 'OpenRouterPolicyError'
  constructor(readonly statusCode: 400 | 403, readonly text: CodedText) {
    super(text.message)
  }
}

/**
 * A chat request made to fit the operator's policy (checkOpenRouterBody, openrouter-body-policy.ts), or an
 * OpenRouterPolicyError with the status and message of its refusal.
 */
export function applyOpenRouterPolicy(body: unknown, policy: OpenRouterPolicy): Record<string, unknown> {
  const verdict = checkOpenRouterBody(body, policy)
  if (!verdict.ok) throw new OpenRouterPolicyError(verdict.statusCode, verdict.text)
  return verdict.body
}

/** OpenRouter's model list (`{ data: [{ id }] }`) narrowed to the allowed models; other shapes pass unchanged. */
export function filterModelList(list: unknown, policy: OpenRouterPolicy): unknown {
  if (policy.allowedModels.length === 0 || !isRecord(list) || !Array.isArray(list.data)) return list
  return { ...list, data: list.data.filter(model => isRecord(model) && policy.allowedModels.includes(String(model.id))) }
}
