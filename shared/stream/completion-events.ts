import { ProviderError } from '../errors/provider-error'
import type { StreamEvent } from './stream-event'
import { pushChunkEvents } from './chunk-events'
import { providerText } from '../errors/provider-messages'
import { parseJson } from '../security/parse-json'

/**
 * Events for a server that ignored `stream: true` and answered with one JSON completion (some local servers do so
 * when tools are offered), or with a JSON error despite status 200. The message is read as one big delta, so the
 * caller sees the same events as for a stream; `done` says `sawDoneSentinel: true` because the answer is complete.
 * @throws ProviderError (kind 'stream') when the body is not JSON.
 */
export function eventsFromJsonCompletion(text: string): StreamEvent[] {
  let completion: unknown
  try {
    completion = parseJson(text)
  }
  catch (error) {
    throw ProviderError.fromText(providerText('provider.notStreamOrJson'), { kind: 'stream', providerMessage: text.slice(0, 200), cause: error })
  }
  const record = typeof completion === 'object' && completion !== null ? completion as Record<string, unknown> : {}
  const choices = Array.isArray(record.choices)
    ? record.choices.map((choice: unknown) => {
        const { message, ...rest } = (typeof choice === 'object' && choice !== null ? choice : {}) as Record<string, unknown>
        return { ...rest, delta: message }
      })
    : undefined
  const events: StreamEvent[] = []
  const failed = pushChunkEvents({ choices, usage: record.usage, error: record.error }, events)
  if (!failed) events.push({ type: 'done', sawDoneSentinel: true })
  return events
}
