import { checkChatSettings, setParameters } from '#shared/loop/chat-settings'
import { REASONING_EFFORTS, type ChatParameters, type ChatSettings, type ReasoningEffort } from '#shared/types/chat-parameters'

/** The form's fields as typed (numbers as text, '' meaning "the provider's default"). */
export interface SettingsDraft {
  systemPrompt: string
  temperature: string
  topP: string
  maxTokens: string
  /** '' for the provider's default. */
  reasoningEffort: ReasoningEffort | ''
}

/** The form's messages by field; empty when the draft can be saved. */
export type SettingsDraftErrors = Partial<Record<keyof SettingsDraft, string>>

/** A form filled with a chat's (or a preset's) settings. */
export function toSettingsDraft(settings: ChatSettings = {}): SettingsDraft {
  const parameters = settings.parameters ?? {}
  const text = (value: number | undefined) => (value === undefined ? '' : String(value))
  return {
    systemPrompt: settings.systemPrompt ?? '',
    temperature: text(parameters.temperature),
    topP: text(parameters.topP),
    maxTokens: text(parameters.maxTokens),
    reasoningEffort: parameters.reasoningEffort ?? '',
  }
}

/** A typed number: '' is unset; anything that is not a number stays as it is, for the check to refuse. */
function readNumber(value: string | number): number | string | undefined {
  const text = String(value).trim()
  if (text === '') return undefined
  const number = Number(text.replace(',', '.'))
  return Number.isNaN(number) ? text : number
}

/**
 * The draft read back into settings, or the messages that say what to fix. A number field holding text is refused
 * with the same message as one out of range.
 */
export function fromSettingsDraft(draft: SettingsDraft): { settings: ChatSettings, errors: SettingsDraftErrors } {
  const parameters: Record<string, unknown> = {
    temperature: readNumber(draft.temperature),
    topP: readNumber(draft.topP),
    maxTokens: readNumber(draft.maxTokens),
    reasoningEffort: (REASONING_EFFORTS as readonly string[]).includes(draft.reasoningEffort) ? draft.reasoningEffort : undefined,
  }
  const settings: ChatSettings = {
    systemPrompt: draft.systemPrompt,
    parameters: setParameters(parameters as ChatParameters),
  }
  const errors: SettingsDraftErrors = {}
  for (const issue of checkChatSettings(settings)) errors[issue.field] ??= issue.message
  return { settings, errors }
}

/** A short line about what is set ("Temperature 0.2 · Max tokens 500"), '' when nothing is. */
export function describeParameters(parameters: ChatParameters | undefined): string {
  if (!parameters) return ''
  const parts: string[] = []
  if (parameters.temperature !== undefined) parts.push(`Temperature ${parameters.temperature}`)
  if (parameters.topP !== undefined) parts.push(`Top P ${parameters.topP}`)
  if (parameters.maxTokens !== undefined) parts.push(`Max tokens ${parameters.maxTokens}`)
  if (parameters.reasoningEffort !== undefined) parts.push(`Reasoning ${parameters.reasoningEffort}`)
  return parts.join(' · ')
}
