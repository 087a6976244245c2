import type { ChatParameters } from '../types/chat-parameters'

/**
 * A chat's parameters as OpenAI-compatible request fields (`temperature`, `top_p`, `max_tokens`, and OpenRouter's
 * `reasoning: { effort }`); a parameter that is not set is not sent, so the provider's default applies.
 */
export function parameterFields(parameters: ChatParameters | undefined): Record<string, unknown> {
  if (!parameters) return {}
  const fields: Record<string, unknown> = {}
  if (parameters.temperature !== undefined) fields.temperature = parameters.temperature
  if (parameters.topP !== undefined) fields.top_p = parameters.topP
  if (parameters.maxTokens !== undefined) fields.max_tokens = parameters.maxTokens
  if (parameters.reasoningEffort !== undefined) fields.reasoning = { effort: parameters.reasoningEffort }
  return fields
}
