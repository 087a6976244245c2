import type { ChatModel, ChatModelRequest } from '#shared/loop/chat-model'
import type { StreamEvent } from '#shared/stream/stream-event'
import type { OpenAICompatibleModelOptions } from '#shared/stream/openai-compatible-model'

/**
 * `createOpenAICompatibleModel(options)`, with the HTTP model (stream reader, error mapping) loaded on its first
 * `stream()` call instead of with the page: the first screen never talks to a model.
 */
export function createLazyOpenAICompatibleModel(options: OpenAICompatibleModelOptions): ChatModel {
  let model: Promise<ChatModel> | undefined
  return {
    async* stream(request: ChatModelRequest): AsyncGenerator<StreamEvent> {
      model ??= import('#shared/stream/openai-compatible-model').then(module => module.createOpenAICompatibleModel(options))
      yield* (await model).stream(request)
    },
  }
}
