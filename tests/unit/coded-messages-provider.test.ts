// A failed reply's provider sentence carries its code: the English the stored error, logs and older clients read is
// unchanged, and the app says the code's sentence in the user's language.
import { describe, expect, it } from 'vitest'
import { describeLoopFailure } from '#shared/loop/loop-failure'
import { providerErrorFromNetworkError, providerErrorFromResponse, providerErrorFromStreamError } from '#shared/stream/provider-error-from-response'
import { sayCodedText } from '~/utils/chat/coded-text'
import { catalogTranslator } from './helpers/catalog-translator'


/** The failure a reply stores, said in `language` as the message's error line says it. */
function said(error: unknown, language: string): string {
  const failure = describeLoopFailure(error)
  return failure.code ? sayCodedText(catalogTranslator(language), { code: failure.code, params: failure.params ?? {}, message: failure.message }) : failure.message
}

const response = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers })

describe('provider failures in the user\'s language', () => {
  it('keeps the English message and carries the code that says it', async () => {
    const cases: Array<[Promise<unknown> | unknown, string, string]> = [
      [providerErrorFromResponse(response(401, { error: { message: 'No auth credentials found' } })), 'provider.badKey', 'The API key is missing or invalid. Check it in Settings.'],
      [providerErrorFromResponse(response(429, {}, { 'retry-after': '12' })), 'provider.rateLimitedSeconds', 'Rate limited by the provider. Try again in 12 s.'],
      [providerErrorFromResponse(response(429, {})), 'provider.rateLimited', 'Rate limited by the provider. Wait a moment and try again.'],
      [providerErrorFromResponse(response(404, { error: { message: 'No endpoints found for x/y' } }), { model: 'x/y' }), 'provider.modelUnavailable', 'The model "x/y" is not available from this provider. Pick another model in Settings.'],
      [providerErrorFromResponse(response(503, 'busy')), 'provider.serverError', 'The provider had a server error (503). Try again in a moment.'],
      [providerErrorFromResponse(response(400, { error: { message: 'This model\'s maximum context length is 8192 tokens' } })), 'provider.rejected', 'The provider rejected the request: This model\'s maximum context length is 8192 tokens'],
      [providerErrorFromResponse(response(402, {}), { baseUrl: 'https://openrouter.ai/api/v1' }), 'provider.noCreditsOpenRouter', 'Your OpenRouter account has no credits left. Add credits at https://openrouter.ai/settings/credits or pick a free model.'],
      [providerErrorFromStreamError({ message: 'overloaded', code: 502 }), 'provider.stoppedMidAnswer', 'The provider stopped with an error mid-answer: overloaded'],
      [providerErrorFromNetworkError(new TypeError('Failed to fetch'), 'http://localhost:11434/v1'), 'provider.unreachable', 'Cannot reach localhost:11434. Check your connection or the base URL in Settings.'],
      [new Error('disk full'), 'loop.somethingWentWrong', 'Something went wrong: disk full'],
    ]
    for (const [pending, code, english] of cases) {
      const failure = describeLoopFailure(await pending)
      expect(failure.code, english).toBe(code)
      expect(failure.message).toBe(english)
    }
  })

  it('says the failure in German and Spanish, with the provider\'s own words and numbers kept', async () => {
    const limited = await providerErrorFromResponse(response(429, {}, { 'retry-after': '300' }))
    expect(said(limited, 'de')).toBe('Der Anbieter begrenzt die Anfragen. Versuchen Sie es in 5 min erneut.')
    expect(said(limited, 'es')).toBe('El proveedor limita las peticiones. Vuelve a intentarlo en 5 min.')
    const tooLong = await providerErrorFromResponse(response(400, { error: { message: 'context_length_exceeded' } }))
    expect(said(tooLong, 'de')).toBe('Der Anbieter hat die Anfrage abgelehnt: context_length_exceeded')
    expect(said(providerErrorFromNetworkError(new TypeError('x'), 'https://api.example.com/v1', { midStream: true }), 'es'))
      .toBe('La conexión con api.example.com se cortó a mitad de la respuesta. Revisa tu conexión y vuelve a intentarlo.')
    expect(said(new Error('boom'), 'de')).toBe('Etwas ist schiefgegangen: boom')
    expect(said(new Error('boom'), 'en')).toBe('Something went wrong: boom')
  })
})
