import { describe, expect, it } from 'vitest'
import { repairToolHistory } from '#shared/history/repair-tool-history'
import { validateStrictHistory } from '#shared/history/validate-strict-history'
import type { ModelMessage } from '#shared/types/chat'
import { checkOpenRouterBody } from '~~/server/utils/openrouter-body-policy'
import type { OpenRouterPolicy } from '~~/server/utils/openrouter-policy'
import { imageChatBodyLimitBytes } from '~~/server/utils/http/request-limits'

const OPEN: OpenRouterPolicy = { allowedModels: [], maxTokens: 0, allowWebSearch: false, allowProviderRouting: false }
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

const history: ModelMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image_url', image_url: { url: PIXEL } }] },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'calculate', arguments: '{"expression":"1+1"}' } }] },
  { role: 'tool', tool_call_id: 'c1', name: 'calculate', content: '2' },
  { role: 'assistant', content: 'A single pixel.' },
]

describe('image parts in a user message', () => {
  it('pass history repair unchanged and make a valid strict history', () => {
    expect(repairToolHistory(history)).toEqual(history)
    expect(validateStrictHistory(history)).toEqual([])
  })

  it('are forwarded by the server key\'s body policy as they are', () => {
    const verdict = checkOpenRouterBody({ model: 'openai/gpt-4o-mini', messages: history }, OPEN)
    expect(verdict.ok).toBe(true)
    if (verdict.ok) expect((verdict.body.messages as ModelMessage[])[0]).toEqual(history[0])
  })

  it('are refused by the body policy when an image URL is past its bound or a part is unknown', () => {
    const huge = { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(4_000_001)}` } }] }
    expect(checkOpenRouterBody({ model: 'openai/gpt-4o-mini', messages: [huge] }, OPEN)).toMatchObject({ ok: false, statusCode: 400 })
    const file = { role: 'user', content: [{ type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,AA==' } }] }
    expect(checkOpenRouterBody({ model: 'openai/gpt-4o-mini', messages: [file] }, OPEN)).toMatchObject({ ok: false, statusCode: 400 })
  })

  it('fit the routes that carry images: 12 MB by default, never below the chat limit', () => {
    expect(imageChatBodyLimitBytes(undefined, 2 * 1024 * 1024)).toBe(12 * 1024 * 1024)
    expect(imageChatBodyLimitBytes('nonsense', 2 * 1024 * 1024)).toBe(12 * 1024 * 1024)
    expect(imageChatBodyLimitBytes(1024, 2 * 1024 * 1024)).toBe(2 * 1024 * 1024)
    expect(imageChatBodyLimitBytes(50 * 1024 * 1024, 2 * 1024 * 1024)).toBe(50 * 1024 * 1024)
  })
})
