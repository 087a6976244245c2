import { describe, expect, it } from 'vitest'
import type { ChatModel, ChatModelRequest } from '#shared/loop/chat-model'
import { ProviderError } from '#shared/errors/provider-error'
import { askForTitle, cleanTitle, TITLE_INSTRUCTION } from '~/utils/chat/provider/chat-title'

function scriptedModel(parts: string[], seen: ChatModelRequest[] = []): ChatModel {
  return {
    async* stream(request) {
      seen.push(request)
      for (const text of parts) yield { type: 'text-delta', text }
      yield { type: 'finish', reason: 'stop' }
    },
  }
}

describe('a title the model writes', () => {
  it('is asked in one bounded request without tools: the instruction, the question and the start of the reply', async () => {
    const seen: ChatModelRequest[] = []
    const title = await askForTitle(scriptedModel(['Tokyo ', 'time ', 'now'], seen), 'What time is it in Tokyo?', 'It is 9 pm in Tokyo.'.repeat(200))
    expect(title).toBe('Tokyo time now')
    expect(seen).toHaveLength(1)
    const [request] = seen
    expect(request!.tools).toBeUndefined()
    expect(request!.parameters).toEqual({ maxTokens: 24 })
    expect(request!.messages[0]).toEqual({ role: 'system', content: TITLE_INSTRUCTION })
    expect(request!.messages[1]!.content).toContain('What time is it in Tokyo?')
    expect(String(request!.messages[1]!.content).length).toBeLessThan(2_600)
    expect(request!.signal).toBeInstanceOf(AbortSignal)
  })

  it('gives up when the model does not answer in time', async () => {
    const hanging: ChatModel = {
      async* stream(request) {
        await new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)))
        yield { type: 'text-delta', text: 'never' }
      },
    }
    await expect(askForTitle(hanging, 'q', 'r', { timeoutMs: 20 })).rejects.toMatchObject({ name: 'TimeoutError' })
  })

  it('fails with the provider\'s error from inside the stream', async () => {
    const failing: ChatModel = {
      async* stream() {
        yield { type: 'error', error: new ProviderError('rate limited', { kind: 'rate-limit', status: 429, retryable: true }) }
      },
    }
    await expect(askForTitle(failing, 'q', 'r')).rejects.toThrow('rate limited')
  })

  it('is cleaned: first line, no label, quotes, marks or final stop, at most six words', () => {
    expect(cleanTitle('Title: "Tokyo Time Zone Question."\nmore text')).toBe('Tokyo Time Zone Question')
    expect(cleanTitle('**Planning a trip to Japan in spring with kids and grandparents**')).toBe('Planning a trip to Japan in')
    expect(cleanTitle('<think>hmm</think>\n\n« Recette de crêpes »')).toBe('Recette de crêpes')
    expect(cleanTitle('   \n  ')).toBe('')
    expect(cleanTitle('x'.repeat(100))).toHaveLength(60)
  })
})
