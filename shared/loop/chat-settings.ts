import type { ModelMessage } from '../types/chat'
import {
  MAX_TOKENS_CAP, REASONING_EFFORTS, SYSTEM_PROMPT_MAX_CHARS, TEMPERATURE_RANGE, TOP_P_RANGE,
  type ChatParameters, type ChatSettings,
} from '../types/chat-parameters'

/** One field that is not acceptable, in words the settings form shows beside it. */
export interface ChatSettingsIssue {
  field: 'systemPrompt' | keyof ChatParameters
  message: string
}

function inRange(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max
}

/**
 * What is wrong with a chat's parameters (empty when all is well). Unknown values are refused, not dropped, so a
 * hostile or stale stored row never reaches the request as it is.
 */
export function checkChatParameters(parameters: unknown): ChatSettingsIssue[] {
  if (parameters === undefined) return []
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    return [{ field: 'temperature', message: 'The parameters must be an object.' }]
  }
  const { temperature, topP, maxTokens, reasoningEffort, ...rest } = parameters as Record<string, unknown>
  const issues: ChatSettingsIssue[] = []
  if (temperature !== undefined && !inRange(temperature, TEMPERATURE_RANGE.min, TEMPERATURE_RANGE.max)) {
    issues.push({ field: 'temperature', message: `Temperature must be a number from ${TEMPERATURE_RANGE.min} to ${TEMPERATURE_RANGE.max}.` })
  }
  if (topP !== undefined && !inRange(topP, TOP_P_RANGE.min, TOP_P_RANGE.max)) {
    issues.push({ field: 'topP', message: `Top P must be a number from ${TOP_P_RANGE.min} to ${TOP_P_RANGE.max}.` })
  }
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && inRange(maxTokens, 1, MAX_TOKENS_CAP))) {
    issues.push({ field: 'maxTokens', message: `Max tokens must be a whole number from 1 to ${MAX_TOKENS_CAP.toLocaleString('en')}.` })
  }
  if (reasoningEffort !== undefined && !(REASONING_EFFORTS as readonly unknown[]).includes(reasoningEffort)) {
    issues.push({ field: 'reasoningEffort', message: `Reasoning effort must be one of ${REASONING_EFFORTS.join(', ')}.` })
  }
  const unknown = Object.keys(rest)
  if (unknown.length > 0) issues.push({ field: 'temperature', message: `Unknown parameter: ${unknown[0]!.slice(0, 40)}.` })
  return issues
}

/** What is wrong with a chat's system prompt and parameters (empty when all is well). */
export function checkChatSettings(settings: ChatSettings): ChatSettingsIssue[] {
  const issues: ChatSettingsIssue[] = []
  if (settings.systemPrompt !== undefined) {
    if (typeof settings.systemPrompt !== 'string') issues.push({ field: 'systemPrompt', message: 'The system prompt must be text.' })
    else if (settings.systemPrompt.length > SYSTEM_PROMPT_MAX_CHARS) {
      issues.push({ field: 'systemPrompt', message: `The system prompt is too long (${SYSTEM_PROMPT_MAX_CHARS.toLocaleString('en')} characters at most).` })
    }
  }
  return [...issues, ...checkChatParameters(settings.parameters)]
}

/**
 * The history as sent with a system prompt: the prompt is the first `system` message. A blank prompt changes
 * nothing; a history that starts with a system message of its own (a workflow's) keeps it after the prompt.
 */
export function withSystemPrompt(messages: readonly ModelMessage[], systemPrompt: string | undefined): ModelMessage[] {
  if (!systemPrompt?.trim()) return [...messages]
  return [{ role: 'system', content: systemPrompt }, ...messages]
}

/** The parameters that are set, the others left out; undefined when none is. */
export function setParameters(parameters: ChatParameters | undefined): ChatParameters | undefined {
  if (!parameters) return undefined
  const set = Object.fromEntries(Object.entries(parameters).filter(([, value]) => value !== undefined && value !== null && value !== ''))
  return Object.keys(set).length > 0 ? set as ChatParameters : undefined
}
