import { codedText, codeOfFailure } from '../errors/coded-text'
import { LOOP_MESSAGES } from './loop-messages'
import { ProviderError } from '../errors/provider-error'
import type { LoopFailure } from './loop-types'

/**
 * Turns an error into data a `fail` event carries (and the store keeps): a message the user can act on, and
 * whether Retry helps. Plain data, because the event may cross the network from a server-run chat.
 */
export function describeLoopFailure(error: unknown): LoopFailure {
  if (ProviderError.isInstance(error)) {
    const providerError = error as ProviderError
    return {
      kind: providerError.kind,
      message: providerError.message,
      providerMessage: providerError.providerMessage && !providerError.message.includes(providerError.providerMessage) ? providerError.providerMessage : undefined,
      retryable: true,
      retryAfterMs: providerError.retryAfterMs,
      ...codeOfFailure(providerError.text),
    }
  }
  const said = codedText(LOOP_MESSAGES, 'loop.somethingWentWrong', { reason: error instanceof Error ? error.message : String(error) })
  return { kind: 'unknown', message: said.message, retryable: true, ...codeOfFailure(said) }
}
