import { describe, expect, it } from 'vitest'
import { checkChatParameters, checkChatSettings, setParameters, withSystemPrompt } from '#shared/loop/chat-settings'
import { parameterFields } from '#shared/stream/parameter-fields'
import { createOpenAICompatibleModel } from '#shared/stream/openai-compatible-model'
import { runChatLoop } from '#shared/loop/run-chat-loop'
import { toolSetFromArray } from '#shared/tools/tool-set'
import { MAX_TOKENS_CAP, SYSTEM_PROMPT_MAX_CHARS } from '#shared/types/chat-parameters'

const messagesOf = (issues: { message: string }[]) => issues.map(issue => issue.message)

describe('checking a chat\'s parameters', () => {
  it('accepts the documented ranges, ends included', () => {
    expect(checkChatParameters({ temperature: 0, topP: 0, maxTokens: 1, reasoningEffort: 'minimal' })).toEqual([])
    expect(checkChatParameters({ temperature: 2, topP: 1, maxTokens: MAX_TOKENS_CAP, reasoningEffort: 'high' })).toEqual([])
    expect(checkChatParameters(undefined)).toEqual([])
  })

  it('refuses values out of range with a message naming the range', () => {
    expect(messagesOf(checkChatParameters({ temperature: 2.5 }))).toEqual(['Temperature must be a number from 0 to 2.'])
    expect(messagesOf(checkChatParameters({ temperature: -0.1 }))).toEqual(['Temperature must be a number from 0 to 2.'])
    expect(messagesOf(checkChatParameters({ topP: 1.01 }))).toEqual(['Top P must be a number from 0 to 1.'])
    expect(messagesOf(checkChatParameters({ maxTokens: 0 }))).toEqual(['Max tokens must be a whole number from 1 to 200,000.'])
    expect(messagesOf(checkChatParameters({ maxTokens: 12.5 }))).toEqual(['Max tokens must be a whole number from 1 to 200,000.'])
    expect(messagesOf(checkChatParameters({ maxTokens: MAX_TOKENS_CAP + 1 }))).toHaveLength(1)
    expect(messagesOf(checkChatParameters({ reasoningEffort: 'extreme' }))).toEqual(['Reasoning effort must be one of minimal, low, medium, high.'])
  })

  it('refuses what is not a number, NaN and Infinity, and unknown fields', () => {
    expect(checkChatParameters({ temperature: '1' })).toHaveLength(1)
    expect(checkChatParameters({ temperature: Number.NaN })).toHaveLength(1)
    expect(checkChatParameters({ maxTokens: Number.POSITIVE_INFINITY })).toHaveLength(1)
    expect(messagesOf(checkChatParameters({ seed: 1 }))).toEqual(['Unknown parameter: seed.'])
    expect(checkChatParameters([])).toHaveLength(1)
    expect(checkChatParameters(null)).toHaveLength(1)
  })

  it('caps the system prompt', () => {
    expect(checkChatSettings({ systemPrompt: 'x'.repeat(SYSTEM_PROMPT_MAX_CHARS) })).toEqual([])
    expect(messagesOf(checkChatSettings({ systemPrompt: 'x'.repeat(SYSTEM_PROMPT_MAX_CHARS + 1) }))).toEqual(['The system prompt is too long (20,000 characters at most).'])
  })

  it('leaves unset parameters out', () => {
    expect(setParameters({ temperature: 0, topP: undefined })).toEqual({ temperature: 0 })
    expect(setParameters({ topP: undefined })).toBeUndefined()
    expect(setParameters(undefined)).toBeUndefined()
  })
})

describe('the system prompt in the history', () => {
  it('is the first system message, before a system message of the history', () => {
    expect(withSystemPrompt([{ role: 'system', content: 'workflow' }, { role: 'user', content: 'hi' }], 'Be brief.')).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: 'workflow' },
      { role: 'user', content: 'hi' },
    ])
  })

  it('is left out when blank', () => {
    expect(withSystemPrompt([{ role: 'user', content: 'hi' }], '  \n')).toEqual([{ role: 'user', content: 'hi' }])
    expect(withSystemPrompt([{ role: 'user', content: 'hi' }], undefined)).toEqual([{ role: 'user', content: 'hi' }])
  })
})

/** An OpenAI-compatible model whose fetch records each body and answers one short streamed reply. */
function recordingModel(extraBody?: Record<string, unknown>) {
  const bodies: Record<string, unknown>[] = []
  const model = createOpenAICompatibleModel({
    baseURL: 'http://model.test/v1',
    model: 'test/model',
    ...(extraBody && { extraBody }),
    fetch: async (_input, init) => {
      bodies.push(JSON.parse(String(init?.body)))
      const sse = 'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
      return new Response(sse, { headers: { 'content-type': 'text/event-stream' } })
    },
  })
  return { model, bodies }
}

describe('the request body', () => {
  it('names each parameter as OpenAI-compatible providers and OpenRouter read it', () => {
    expect(parameterFields({ temperature: 0.3, topP: 0.9, maxTokens: 512, reasoningEffort: 'low' }))
      .toEqual({ temperature: 0.3, top_p: 0.9, max_tokens: 512, reasoning: { effort: 'low' } })
    expect(parameterFields({ temperature: 0 })).toEqual({ temperature: 0 })
    expect(parameterFields(undefined)).toEqual({})
  })

  it('carries the run\'s system prompt first and its parameters on every step of the loop', async () => {
    const { model, bodies } = recordingModel({ temperature: 1 })
    const result = await runChatLoop({
      model,
      messages: withSystemPrompt([{ role: 'user', content: 'hi' }], 'Answer in French.'),
      parameters: { temperature: 0.2, maxTokens: 300 },
      tools: toolSetFromArray([]),
      threadId: 't',
    })
    expect(result.finishReason).toBe('stop')
    expect(bodies).toHaveLength(1)
    expect(bodies[0]).toMatchObject({ model: 'test/model', temperature: 0.2, max_tokens: 300, messages: [{ role: 'system', content: 'Answer in French.' }, { role: 'user', content: 'hi' }] })
    expect(bodies[0]).not.toHaveProperty('top_p')
    expect(bodies[0]).not.toHaveProperty('reasoning')
  })

  it('sends no parameter field when the chat sets none', async () => {
    const { model, bodies } = recordingModel()
    await runChatLoop({ model, messages: [{ role: 'user', content: 'hi' }], tools: toolSetFromArray([]), threadId: 't' })
    expect(Object.keys(bodies[0]!).sort()).toEqual(['messages', 'model', 'stream', 'stream_options'])
  })
})
