// The server's general refusals and the OpenRouter proxy's policy on the server's key carry codes: the English a
// client, a log or the model reads stays as it was, and the app says the refusal in the user's language, also when
// it arrives as a failed reply's provider error.
import * as h3 from 'h3'
import { setResponseStatus } from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeLoopFailure } from '#shared/loop/loop-failure'
import { providerErrorFromResponse } from '#shared/stream/provider-error-from-response'
import { jobEndingFailure } from '~~/server/utils/background-jobs/runner/job-ending'
import { checkOpenRouterBody } from '~~/server/utils/openrouter-body-policy'
import { applyOpenRouterPolicy } from '~~/server/utils/openrouter-policy'
import type { OpenRouterPolicy , OpenRouterPolicyError } from '~~/server/utils/openrouter-policy'
import { readBoundedJson } from '~~/server/utils/http/read-bounded-body'
import { sayCodedText } from '~/utils/chat/coded-text'
import { listenApp } from './helpers/listen-app'
import type { ListeningApp } from './helpers/listen-app'
import { catalogTranslator } from './helpers/catalog-translator'


const policy: OpenRouterPolicy = { allowedModels: ['h/good'], maxTokens: 0, allowWebSearch: false, allowProviderRouting: false }
const chat = (extra: Record<string, unknown>) => ({ model: 'h/good', messages: [{ role: 'user', content: 'hi' }], ...extra })

let server: ListeningApp | undefined

beforeAll(async () => {
  for (const name of ['createError', 'setResponseHeader', 'getRequestHeader'] as const) (globalThis as Record<string, unknown>)[name] = h3[name]
  const app = h3.createApp()
  // answers the refusal's fields as Nitro's error handler sends them (a bare h3 app leaves the message out)
  app.use('/json', h3.defineEventHandler(async (event) => {
    try {
      return { read: await readBoundedJson(event, 64) }
    }
    catch (error) {
      const { statusCode, message, data } = error as h3.H3Error
      setResponseStatus(event, statusCode)
      return { message, data }
    }
  }))
  server = await listenApp(app)
})

afterAll(async () => {
  await server?.close()
})

describe('the server\'s general refusals in the user\'s language', () => {
  it('a body that is not JSON, or too large, is refused with a code beside the English', async () => {
    const notJson = await (await fetch(`${server!.base}/json`, { method: 'POST', body: '{"a":' })).json() as { message: string, data: { code: string, params: Record<string, string> } }
    expect(notJson.data.code).toBe('server.body.notJson')
    expect(notJson.message).toBe(`The request body is not valid JSON: ${notJson.data.params.reason}`)
    const tooLarge = await fetch(`${server!.base}/json`, { method: 'POST', body: JSON.stringify({ text: 'x'.repeat(200) }) })
    expect(tooLarge.status).toBe(413)
    const refused = await tooLarge.json() as { message: string, data: { code: string, params: Record<string, string> } }
    expect(refused.data).toEqual({ code: 'server.body.tooLarge', params: { size: expect.any(String) } })
    expect(refused.message).toBe(`The request body is larger than this server accepts (${refused.data.params.size}). Start a new chat or send less.`)
    expect(sayCodedText(catalogTranslator('de'), { ...refused.data, message: refused.message })).toMatch(/^Der Inhalt der Anfrage ist größer, als dieser Server annimmt/)
  })

  it('the OpenRouter policy refuses with a code and the English it always sent', () => {
    const cases: Array<[unknown, string, string]> = [
      [chat({ model: 'o1-pro' }), 'server.openrouter.modelNotAllowed', 'The model "o1-pro" is not allowed on this server. Allowed: h/good.'],
      [chat({ plugins: [{ id: 'web' }] }), 'server.openrouter.webSearchField', 'The field "plugins" is web search, billed per request beyond tokens, and this server\'s key does not allow it (the operator can, with NUXT_OPENROUTER_ALLOW_WEB_SEARCH=true).'],
      [chat({ n: 3 }), 'server.openrouter.oneChoice', 'Only one choice per request (n = 1) is allowed on this server.'],
      [chat({ tools: 'all' }), 'server.openrouter.toolsNotArray', 'The request offers tools that are not an array; at most 128 are accepted.'],
      [chat({ frobnicate: 1 }), 'server.openrouter.unknownField', expect.stringMatching(/^The request field "frobnicate" is not accepted on this server's key\. Accepted: /) as unknown as string],
      [[], 'server.openrouter.notObject', 'The request body must be a JSON object.'],
    ]
    for (const [body, code, english] of cases) {
      const verdict = checkOpenRouterBody(body, policy)
      expect(verdict.ok).toBe(false)
      if (verdict.ok) continue
      expect(verdict.text.code).toBe(code)
      expect(verdict.message).toEqual(english)
      expect(verdict.text.message).toBe(verdict.message)
    }
  })

  it('a policy refusal reaches the failed reply as the server\'s sentence, said in German, not as a bad key', async () => {
    let refusal: OpenRouterPolicyError | undefined
    try {
      applyOpenRouterPolicy(chat({ model: 'o1-pro' }), policy)
    }
    catch (error) {
      refusal = error as OpenRouterPolicyError
    }
    // the body the proxy route sends (h3's createError with the code in data)
    const body = { statusCode: 403, message: refusal!.message, data: { code: refusal!.text.code, params: refusal!.text.params } }
    const failure = describeLoopFailure(await providerErrorFromResponse(new Response(JSON.stringify(body), { status: 403 })))
    expect(failure.kind).toBe('bad-request')
    expect(failure.message).toBe('The model "o1-pro" is not allowed on this server. Allowed: h/good.')
    expect(sayCodedText(catalogTranslator('de'), { code: failure.code!, params: failure.params!, message: failure.message }))
      .toBe('Das Modell "o1-pro" ist auf diesem Server nicht erlaubt. Erlaubt: h/good.')
    // an upstream's own 403 without a code is still read as before
    const upstream = describeLoopFailure(await providerErrorFromResponse(new Response(JSON.stringify({ error: { message: 'Invalid key' } }), { status: 403 })))
    expect(upstream.code).toBe('provider.badKey')
  })

  it('a job without chat state ends with a coded sentence', () => {
    const failure = jobEndingFailure('The job has no chat state.')
    expect(failure).toMatchObject({ code: 'server.job.noChatState', message: 'The job has no chat state. Press Retry.' })
    expect(sayCodedText(catalogTranslator('es'), { code: failure.code!, params: {}, message: failure.message })).toBe('La tarea no tiene estado de chat. Pulsa «Reintentar».')
  })
})
