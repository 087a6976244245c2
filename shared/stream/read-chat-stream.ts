import { createParser } from 'eventsource-parser'
import type { EventSourceMessage } from 'eventsource-parser'
import type { StreamEvent } from './stream-event'
import { pushChunkEvents } from './chunk-events'
import { throwIfAborted } from './abort-error'
import { iterateBody } from './iterate-body'
import type { ChatStreamBody } from './iterate-body'
import { providerErrorFromStreamError } from './provider-error-from-response'
import { tryParseJson } from '../security/parse-json'

export type { ChatStreamBody } from './iterate-body'

export interface ReadChatStreamOptions {
  /** Aborting stops the reader with a DOMException named 'AbortError', even while a read is pending. */
  signal?: AbortSignal
  /**
   * Called for each `data:` payload that is neither JSON nor `[DONE]`, with the parser's message; such lines are
   * skipped (see readChatStream).
   * @default undefined (skipped silently)
   */
  onMalformedData?: (data: string, error: string) => void
}

/**
 * Reads an OpenAI-compatible `/chat/completions` SSE body and yields typed {@link StreamEvent}s.
 *
 * - SSE framing (CRLF, comments such as `: OPENROUTER PROCESSING`, multi-line `data:`) is eventsource-parser's job;
 *   bytes are decoded with a streaming TextDecoder, so a UTF-8 character split across chunks comes out whole.
 * - Only choice index 0 drives events. Refusal text is yielded as text; reasoning comes from `reasoning`,
 *   `reasoning_content` or `reasoning_details` (see chunk-events.ts for the precedence).
 * - Errors (`event: error`, an `error` object in a chunk, `finish_reason: 'error'`) are yielded as one
 *   `{ type: 'error' }` event with a ProviderError of kind 'stream'; the reader stops right after it (no `done`).
 *   Events carried by the same chunk before the error (text, finish, usage) are yielded first.
 * - `data: [DONE]` ends the stream with `{ type: 'done', sawDoneSentinel: true }` (later bytes are not read); a body
 *   that ends without it yields `{ type: 'done', sawDoneSentinel: false }`, which the caller may treat as truncation.
 *   A last event that lacks its closing blank line is still dispatched.
 * - Malformed JSON in a `data:` line is SKIPPED, not an error: one corrupt or non-standard keep-alive line should not
 *   throw away a long answer, and a truncated stream already shows as a missing `[DONE]`. Pass `onMalformedData`
 *   to observe skipped lines.
 * - Failures of the body itself (connection reset) are rethrown as they are; the model layer maps them to a
 *   ProviderError of kind 'network'.
 */
export async function* readChatStream(body: ChatStreamBody, options: ReadChatStreamOptions = {}): AsyncGenerator<StreamEvent> {
  const { signal, onMalformedData } = options
  const queue: StreamEvent[] = []
  let stopped = false

  const onEvent = (message: EventSourceMessage) => {
    if (stopped) return
    const data = message.data
    if (message.event === 'error') {
      const parsed = tryParseJson(data)
      const payload = parsed.ok ? parsed.value : { message: data }
      const errorObject = typeof payload === 'object' && payload !== null && 'error' in payload ? payload.error : payload
      queue.push({ type: 'error', error: providerErrorFromStreamError(errorObject) })
      stopped = true
      return
    }
    // Other named events (e.g. `event: ping`) carry nothing for a chat-completions client.
    if (message.event !== undefined && message.event !== 'message') return
    // Trim only short payloads: trimming every JSON chunk would copy it for nothing.
    if (data === '[DONE]' || (data.length < 16 && data.trim() === '[DONE]')) {
      queue.push({ type: 'done', sawDoneSentinel: true })
      stopped = true
      return
    }
    const parsed = tryParseJson(data)
    if (!parsed.ok) {
      onMalformedData?.(data, parsed.error)
      return
    }
    if (pushChunkEvents(parsed.value, queue)) stopped = true
  }

  const parser = createParser({ onEvent })
  const decoder = new TextDecoder('utf-8')
  for await (const chunk of iterateBody(body, signal)) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))
    if (queue.length > 0) {
      // Copy first: the consumer may resume us only after more feeding, and the queue is reused.
      const events = queue.splice(0, queue.length)
      for (const event of events) {
        // Stop promptly even when one network read carried many events.
        throwIfAborted(signal)
        yield event
      }
    }
    if (stopped) return
  }
  parser.feed(`${decoder.decode()}\n\n`)
  for (const event of queue) yield event
  if (!stopped) yield { type: 'done', sawDoneSentinel: false }
}
