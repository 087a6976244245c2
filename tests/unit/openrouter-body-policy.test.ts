import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkOpenRouterBody } from '~~/server/utils/openrouter-body-policy'
import type { OpenRouterBodyVerdict } from '~~/server/utils/openrouter-body-policy'
import { FORWARDED_FIELDS, PROVIDER_ROUTING_FIELDS, WEB_SEARCH_FIELDS } from '~~/server/utils/openrouter-body-schema'
import type { OpenRouterPolicy } from '~~/server/utils/openrouter-policy'

const ALLOWED = ['openai/gpt-4o-mini', 'anthropic/claude-3.5-haiku']
const LOCKED: OpenRouterPolicy = { allowedModels: ALLOWED, maxTokens: 0, allowWebSearch: false, allowProviderRouting: false }
const OPEN: OpenRouterPolicy = { allowedModels: [], maxTokens: 0, allowWebSearch: false, allowProviderRouting: false }
const PAYING: OpenRouterPolicy = { ...LOCKED, allowWebSearch: true, allowProviderRouting: true }

const chat = (extra: Record<string, unknown> = {}) => ({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], ...extra })

function refusal(verdict: OpenRouterBodyVerdict): { statusCode: number, message: string } {
  if (verdict.ok) throw new Error(`expected a refusal, got ${JSON.stringify(verdict.body).slice(0, 200)}`)
  return verdict
}

function forwarded(verdict: OpenRouterBodyVerdict): Record<string, unknown> {
  if (!verdict.ok) throw new Error(`expected a body, got ${verdict.statusCode}: ${verdict.message}`)
  return verdict.body
}

describe('the body policy: paid options', () => {
  it.each([
    ['plugins', { plugins: [{ id: 'web' }] }, 'NUXT_OPENROUTER_ALLOW_WEB_SEARCH'],
    ['web_search_options', { web_search_options: { search_context_size: 'high' } }, 'NUXT_OPENROUTER_ALLOW_WEB_SEARCH'],
    ['provider', { provider: { order: ['openai'], max_price: { prompt: 1000 } } }, 'NUXT_OPENROUTER_ALLOW_PROVIDER_ROUTING'],
  ])('refuses %s with 403, naming the field and the switch that allows it', (field, extra, variable) => {
    for (const policy of [LOCKED, OPEN]) {
      const { statusCode, message } = refusal(checkOpenRouterBody(chat(extra), policy))
      expect(statusCode).toBe(403)
      expect(message).toContain(`"${field}"`)
      expect(message).toContain(`${variable}=true`)
    }
  })

  it.each([
    [{ model: 'openai/gpt-4o-mini:online' }],
    [{ model: 'any/model:ONLINE' }],
    [{ models: ['openai/gpt-4o-mini', 'perplexity/sonar:online'] }],
    [{ model: 'openai/gpt-4o-mini:nitro' }],
  ])('refuses web search or routing hidden in a model id, even when any model is allowed: %j', (extra) => {
    expect(refusal(checkOpenRouterBody(chat(extra), OPEN)).statusCode).toBe(403)
  })

  it('keeps the fallback list inside the model allow-list', () => {
    for (const models of [['openai/o1-pro'], ['openai/gpt-4o-mini', 'openai/o1-pro'], [42], 'openai/o1-pro']) {
      const { statusCode, message } = refusal(checkOpenRouterBody(chat({ models }), LOCKED))
      expect(statusCode).toBe(403)
      expect(message).toMatch(/o1-pro|42/)
    }
    expect(forwarded(checkOpenRouterBody(chat({ models: ['anthropic/claude-3.5-haiku'] }), LOCKED)).models).toEqual(['anthropic/claude-3.5-haiku'])
    expect(refusal(checkOpenRouterBody(chat({ models: Array.from({ length: 50 }, () => 'x/y') }), OPEN)).message).toContain('"models"')
  })

  it('forwards web search and routing once allowed, bounded', () => {
    const paid = { plugins: [{ id: 'web', max_results: 3 }], web_search_options: { search_context_size: 'low' }, provider: { sort: 'price', data_collection: 'deny' } }
    expect(forwarded(checkOpenRouterBody(chat(paid), PAYING))).toEqual(chat(paid))
    expect(forwarded(checkOpenRouterBody(chat({ model: 'openai/gpt-4o-mini:online' }), { ...PAYING, allowedModels: [] })).model).toBe('openai/gpt-4o-mini:online')
    for (const plugins of [[{ id: 'web', max_results: 1000 }], [{ id: 'file-parser', pdf: { engine: 'mistral-ocr' } }], [{ id: 'web' }, { id: 'web' }]]) {
      expect(refusal(checkOpenRouterBody(chat({ plugins }), PAYING)).message).toContain('"plugins')
    }
    expect(forwarded(checkOpenRouterBody(chat({ provider: { sort: 'price', junk: 1 } }), PAYING)).provider).toEqual({ sort: 'price' })
  })
})

describe('the body policy: the allow-list', () => {
  it('forwards every field the app sends, and the documented options, unchanged', () => {
    const tool = { type: 'function', function: { name: 'calculate', description: 'Adds.', parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] }, strict: true } }
    const body = chat({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'calculate', arguments: '{"expression":"1+1"}' } }] },
        { role: 'tool', tool_call_id: 'c1', name: 'calculate', content: '2' },
      ],
      stream: true, stream_options: { include_usage: true }, tools: [tool], tool_choice: 'auto', parallel_tool_calls: false,
      temperature: 0.2, top_p: 0.9, max_tokens: 500, stop: ['\n\n'], seed: 7, response_format: { type: 'json_object' },
      reasoning: { effort: 'low' }, usage: { include: true }, n: 1, user: 'session-1', transforms: ['middle-out'],
    })
    expect(forwarded(checkOpenRouterBody(body, LOCKED))).toEqual(body)
  })

  it('refuses a field it does not know, by name, rather than send a reply made without it', () => {
    for (const field of ['modalities', 'service_tier', 'prediction', 'debug', 'route', '__proto__', 'constructor']) {
      const { statusCode, message } = refusal(checkOpenRouterBody(JSON.parse(`{"model":"openai/gpt-4o-mini","messages":[],"${field}":{"x":1}}`), OPEN))
      expect(statusCode).toBe(400)
      expect(message).toContain(`"${field}"`)
    }
  })

  it('drops unknown keys inside messages, content parts and tools', () => {
    const body = chat({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral', ttl: '1h' } }], plugins: [{ id: 'web' }] }],
      tools: [{ type: 'function', provider: 'x', function: { name: 'f', parameters: { type: 'object' }, web_search_options: {} } }],
    })
    expect(forwarded(checkOpenRouterBody(body, LOCKED))).toEqual(chat({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    }))
  })

  it.each([
    ['a file part (paid PDF parsing)', { messages: [{ role: 'user', content: [{ type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,AA' } }] }] }, 'messages[0].content'],
    ['a non-function tool', { tools: [{ type: 'web_search' }] }, 'tools[0].type'],
    ['an unknown role', { messages: [{ role: 'root', content: 'x' }] }, 'messages[0].role'],
    ['a huge temperature', { temperature: 1e308 }, 'temperature'],
    ['a string for a number', { top_p: '0.5' }, 'top_p'],
    ['too many stop sequences', { stop: Array.from({ length: 100 }, () => 'x') }, 'stop'],
    ['a huge logit_bias', { logit_bias: Object.fromEntries(Array.from({ length: 1000 }, (_, index) => [String(index), 1])) }, 'logit_bias'],
    ['a bad tool name', { tools: [{ type: 'function', function: { name: 'a b<script>' } }] }, 'tools[0].function.name'],
    ['an odd tool_choice', { tool_choice: { type: 'web_search' } }, 'tool_choice'],
  ])('refuses %s with 400, naming the path', (_, extra, path) => {
    const { statusCode, message } = refusal(checkOpenRouterBody(chat(extra), OPEN))
    expect(statusCode).toBe(400)
    expect(message).toContain(`"${path}`)
  })

  it('lowers odd token limits to the cap', () => {
    const policy = { ...LOCKED, maxTokens: 1000 }
    expect(forwarded(checkOpenRouterBody(chat({ max_tokens: 1e12 }), policy)).max_tokens).toBe(1000)
    expect(forwarded(checkOpenRouterBody(chat({ max_tokens: 0.5 }), policy)).max_tokens).toBe(1000)
    expect(forwarded(checkOpenRouterBody(chat({ max_tokens: null, reasoning: { max_tokens: 1e9 } }), policy))).toMatchObject({ max_tokens: 1000, reasoning: { max_tokens: 1000 } })
  })
})

// Property tests: the policy as an attacker's fuzzer meets it.
const NUM_RUNS = 2000
const POLICIES = [LOCKED, OPEN, PAYING]
const fieldsOf = (policy: OpenRouterPolicy) => new Set(Object.keys({
  ...FORWARDED_FIELDS, ...(policy.allowWebSearch && WEB_SEARCH_FIELDS), ...(policy.allowProviderRouting && PROVIDER_ROUTING_FIELDS),
}))
const KNOWN = [...fieldsOf(PAYING)]

const text = fc.string({ maxLength: 40 })
const appMessage = fc.oneof(
  fc.record({ role: fc.constant('system'), content: text }),
  fc.record({ role: fc.constant('user'), content: fc.oneof(text, fc.array(fc.record({ type: fc.constant('text'), text }), { maxLength: 3 })) }),
  fc.record({ role: fc.constant('assistant'), content: fc.option(text, { nil: null }) }, { requiredKeys: [] }).map(message => ({ role: 'assistant', ...message })),
  fc.record({ role: fc.constant('tool'), tool_call_id: text, content: text }),
)
/** A valid value of each field, so fuzzed bodies often get past the checks and reach the filter. */
const SAMPLES: Record<string, unknown> = {
  stream: true, stream_options: { include_usage: true }, temperature: 0.7, top_p: 0.5, max_tokens: 100, seed: 3, stop: 'END',
  tool_choice: 'auto', parallel_tool_calls: true, reasoning: { effort: 'high', max_tokens: 50 }, usage: { include: true }, n: 1,
  tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }], response_format: { type: 'text' },
  models: ['openai/gpt-4o-mini'], plugins: [{ id: 'web' }], web_search_options: {}, provider: { sort: 'price' },
}
/** A message the app sends, sometimes with keys nobody knows (which the policy drops). */
const messageWithJunk = fc.tuple(appMessage, fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }))
  .map(([message, junk]) => ({ ...junk, ...message }))
/** A JSON body that gets past the first checks often: a model, messages, and fields known and unknown. */
const attackerBody = fc.record({
  model: fc.oneof(fc.constantFrom(...ALLOWED, 'x/y:online', 'openai/o1-pro'), text),
  messages: fc.array(fc.oneof({ weight: 4, arbitrary: messageWithJunk }, { weight: 1, arbitrary: fc.jsonValue() }), { maxLength: 4 }),
  extra: fc.array(fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...Object.entries(SAMPLES)) },
    { weight: 1, arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...KNOWN), text), fc.jsonValue({ maxDepth: 3 })) },
  ), { maxLength: 4 }),
}).map(({ model, messages, extra }) => ({ ...Object.fromEntries(extra), model, messages }))
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 4 }), attackerBody)

describe(`the body policy, ${NUM_RUNS} runs per property`, () => {
  it('never throws, forwards allow-listed fields only, and never more bytes than it was given (no token cap)', () => {
    let forwardedCount = 0
    fc.assert(fc.property(anyJson, fc.constantFrom(...POLICIES), (body, policy) => {
      const input = JSON.parse(JSON.stringify(body)) as unknown
      const verdict = checkOpenRouterBody(input, policy)
      if (!verdict.ok) return [400, 403].includes(verdict.statusCode) && verdict.message.length > 0
      forwardedCount++
      const fields = fieldsOf(policy)
      return Object.keys(verdict.body).every(field => fields.has(field))
        && JSON.stringify(verdict.body).length <= JSON.stringify(input).length
    }), { numRuns: NUM_RUNS })
    // Not a vacuous property: a good share of the fuzzed bodies is forwarded, not refused.
    expect(forwardedCount).toBeGreaterThan(NUM_RUNS / 20)
    console.info(`body policy fuzz: ${forwardedCount} of ${NUM_RUNS} bodies forwarded`)
  })

  it('keeps the messages of every body on an allowed model intact', () => {
    const body = fc.record({ model: fc.constantFrom(...ALLOWED), messages: fc.array(appMessage, { maxLength: 6 }), temperature: fc.double({ min: 0, max: 2, noNaN: true }) }, { requiredKeys: ['model', 'messages'] })
    fc.assert(fc.property(body, fc.constantFrom(...POLICIES), (input, policy) => {
      const output = forwarded(checkOpenRouterBody(JSON.parse(JSON.stringify(input)), policy))
      expect(output.messages).toEqual(JSON.parse(JSON.stringify(input.messages)))
    }), { numRuns: NUM_RUNS })
  })
})
