/** The id the app uses for the offline demo model. */
export const DEMO_MODEL_ID = 'plugboard/demo'

/** GET /api/demo/v1/models: the demo model in OpenRouter's `/models` shape. */
export function listDemoModels() {
  return {
    data: [{
      id: DEMO_MODEL_ID,
      name: 'Plugboard demo (scripted, offline)',
      description: 'A scripted model served by this app. It needs no key and no network, and it calls enabled tools for prompts like "what is 12*7". No AI involved.',
      created: 0,
      context_length: 32_768,
      architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text' },
      pricing: { prompt: '0', completion: '0', request: '0', image: '0' },
      top_provider: { context_length: 32_768, max_completion_tokens: 8_192, is_moderated: false },
      supported_parameters: ['tools', 'tool_choice', 'stream', 'reasoning', 'include_reasoning', 'max_tokens'],
    }],
  }
}
