import { fetchModels, type ModelInfo } from '#shared/stream/openai-compatible-model'
import type { ModelConfig } from './provider-settings'

/** One model list per endpoint for the tab's life: what a model reads does not change between sends. */
const lists = new Map<string, Promise<ModelInfo[]>>()

/** What is needed to tell whether a model reads images. */
export interface ImageInputQuery {
  config: Pick<ModelConfig, 'providerId' | 'baseURL' | 'apiKey' | 'headers'>
  model: string
  /** The OpenAI-compatible endpoint was set as text only in Settings. */
  textOnly?: boolean
}

/**
 * Whether `model` takes images: never the demo; an OpenAI-compatible endpoint unless set as text only; on OpenRouter
 * what its model list says (`architecture.input_modalities`). A list that cannot be read, or a model it does not
 * know, counts as able: the provider then answers for itself, and the user's images are not dropped on a guess.
 */
export async function modelReadsImages(query: ImageInputQuery): Promise<boolean> {
  const { config, model } = query
  if (config.providerId === 'demo') return false
  if (config.providerId === 'openai-compatible') return !query.textOnly
  const key = `${config.baseURL}\n${config.apiKey ?? ''}`
  let list = lists.get(key)
  if (!list) {
    list = fetchModels(config.baseURL, { apiKey: config.apiKey, headers: config.headers })
    lists.set(key, list)
    // a failed read is asked again at the next send
    list.catch(() => lists.delete(key))
  }
  try {
    return (await list).find(info => info.id === model)?.supportsImages ?? true
  }
  catch {
    return true
  }
}
