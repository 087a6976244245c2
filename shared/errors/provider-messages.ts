/**
 * The English of a failed reply's provider sentences (bad key, no credits, rate limit, model not available, server
 * error, network down, ...), by code: the failure keeps this English as its `message` (what logs and the stored error
 * read), and the app shows the code's catalog entry (`codes.provider.*`) in the user's language.
 */
import { codedText } from './coded-text'
import type { CodedParams, CodedText } from './coded-text'

export const PROVIDER_MESSAGES = {
  'provider.noTools': 'The model "{model}" cannot call tools with this provider. Turn tools off or pick another model in Settings.',
  'provider.noToolsSelected': 'The selected model cannot call tools with this provider. Turn tools off or pick another model in Settings.',
  'provider.badKey': 'The API key is missing or invalid. Check it in Settings.',
  'provider.moderation': 'The provider\'s moderation refused this request: {reason}',
  'provider.noCreditsOpenRouter': 'Your OpenRouter account has no credits left. Add credits at https://openrouter.ai/settings/credits or pick a free model.',
  'provider.noCredits': 'The provider account has no credits left. Add credits with the provider or pick another model.',
  'provider.rateLimited': 'Rate limited by the provider. Wait a moment and try again.',
  'provider.rateLimitedSeconds': 'Rate limited by the provider. Try again in {seconds} s.',
  'provider.rateLimitedMinutes': 'Rate limited by the provider. Try again in {minutes} min.',
  'provider.modelUnavailable': 'The model "{model}" is not available from this provider. Pick another model in Settings.',
  'provider.selectedModelUnavailable': 'The selected model is not available from this provider. Pick another model in Settings.',
  'provider.serverError': 'The provider had a server error ({status}). Try again in a moment.',
  'provider.rejected': 'The provider rejected the request: {reason}',
  'provider.rejectedStatus': 'The provider rejected the request ({status}).',
  'provider.unexpected': 'Unexpected response from the provider ({status}).',
  'provider.stoppedMidAnswer': 'The provider stopped with an error mid-answer: {reason}',
  'provider.stoppedMidAnswerBare': 'The provider stopped with an error mid-answer.',
  'provider.brokeOff': 'The connection to {host} broke off mid-answer. Check your connection and try again.',
  'provider.unreachable': 'Cannot reach {host}. Check your connection or the base URL in Settings.',
  'provider.notStreamOrJson': 'The provider sent a response that is neither a stream nor JSON.',
  'provider.modelListNotJson': 'The provider sent a model list that is not JSON.',
  'provider.emptyResponse': 'The provider sent an empty response.',
} as const

export type ProviderMessageCode = keyof typeof PROVIDER_MESSAGES

/** A provider failure's sentence by its code. */
export function providerText(code: ProviderMessageCode, params: CodedParams = {}): CodedText {
  return codedText(PROVIDER_MESSAGES, code, params)
}
