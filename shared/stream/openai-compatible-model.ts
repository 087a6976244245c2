import type { ChatModel, ChatModelRequest } from '../loop/chat-model'
import { ProviderError } from '../errors/provider-error'
import type { StreamEvent } from './stream-event'
import { isAbortError, toAbortError } from './abort-error'
import { eventsFromJsonCompletion } from './completion-events'
import { readChatStream } from './read-chat-stream'
import { parameterFields } from './parameter-fields'
import { providerErrorFromNetworkError, providerErrorFromResponse } from './provider-error-from-response'
import { providerText } from '../errors/provider-messages'

export { fetchModels } from './fetch-models'
export { openRouterAttributionHeaders } from './openrouter-attribution'
export type { FetchModelsOptions, ModelInfo } from './fetch-models'

export interface OpenAICompatibleModelOptions {
  /** e.g. `https://openrouter.ai/api/v1`, `http://localhost:11434/v1`; a trailing slash is ignored. */
  baseURL: string
  /** Sent as `Authorization: Bearer <key>` only when non-empty (local servers need none). */
  apiKey?: string
  model: string
  /** Extra request headers, e.g. {@link openRouterAttributionHeaders}. */
  headers?: Record<string, string>
  /** @default globalThis.fetch */
  fetch?: typeof fetch
  /**
   * Extra request body fields (`temperature`, OpenRouter's `reasoning` or `provider`, ...). The fields this model
   * sets itself (model, messages, stream, stream_options, tools, tool_choice) win over these.
   * @default {}
   */
  extraBody?: Record<string, unknown>
}


function requestBody(options: OpenAICompatibleModelOptions, request: ChatModelRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...options.extraBody,
    // The chat's own parameters win over the defaults of the model's options.
    ...parameterFields(request.parameters),
    model: options.model,
    messages: request.messages,
    stream: true,
    stream_options: { include_usage: true },
  }
  // Some local servers reject an empty `tools` array or a `tool_choice` without tools, so both go only with tools.
  delete body.tools
  delete body.tool_choice
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools
    if (request.toolChoice) body.tool_choice = request.toolChoice
  }
  return body
}

/**
 * A {@link ChatModel} for any OpenAI-compatible `/chat/completions` endpoint (OpenRouter, Ollama, LM Studio,
 * llama.cpp, vLLM). Each `stream()` call POSTs one streamed completion and yields the events of readChatStream.
 * Throws a ProviderError for non-2xx responses and network failures (also when the body breaks off mid-stream);
 * an abort of `request.signal` surfaces as a DOMException named 'AbortError', never as a ProviderError.
 */
export function createOpenAICompatibleModel(options: OpenAICompatibleModelOptions): ChatModel {
  const baseURL = options.baseURL.replace(/\/+$/, '')
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Accept': 'text/event-stream',
    ...options.headers,
  }
  const apiKey = options.apiKey?.trim()
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`

  async function* stream(request: ChatModelRequest): AsyncGenerator<StreamEvent> {
    const { signal } = request
    let response: Response
    try {
      response = await fetchImpl(`${baseURL}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify(requestBody(options, request)),
        signal,
      })
    }
    catch (error) {
      if (signal?.aborted || isAbortError(error)) throw toAbortError(signal?.reason ?? error)
      throw providerErrorFromNetworkError(error, baseURL)
    }
    if (!response.ok) throw await providerErrorFromResponse(response, { model: options.model, baseUrl: baseURL })
    if (!response.body) {
      throw ProviderError.fromText(providerText('provider.emptyResponse'), { kind: 'stream', status: response.status })
    }
    try {
      if (/application\/json/i.test(response.headers.get('content-type') ?? '')) {
        yield* eventsFromJsonCompletion(await response.text())
        return
      }
      yield* readChatStream(response.body, { signal })
    }
    catch (error) {
      if (signal?.aborted || isAbortError(error)) throw toAbortError(signal?.reason ?? error)
      if (ProviderError.isInstance(error)) throw error
      throw providerErrorFromNetworkError(error, baseURL, { midStream: true })
    }
  }

  return { stream }
}
