// A dead share link's page is plain HTML without the app: the server picks its words in the visitor's language.
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { createEvent } from 'h3'
import { describe, expect, it } from 'vitest'
import { sharedPageWords } from '~~/server/utils/share/shared-page-language'
import { sharedPageStatusHtml } from '~~/server/utils/share/shared-page-status-html'

function eventWith(headers: Record<string, string>) {
  const request = new IncomingMessage(new Socket())
  request.headers = headers
  return createEvent(request, new ServerResponse(request))
}

describe('the dead share link page\'s language', () => {
  it('follows the browser\'s languages in order, skipping the ones the app does not have', () => {
    expect(sharedPageWords(eventWith({ 'accept-language': 'fr-CH, fr;q=0.9, de;q=0.8, en;q=0.5' }), 'revoked')).toEqual({
      lang: 'de',
      heading: 'Dieser Link wurde widerrufen',
      sentence: 'Dieser Link wurde widerrufen: Sein Besitzer teilt diesen Chat nicht mehr.',
    })
    expect(sharedPageWords(eventWith({ 'accept-language': 'es-MX' }), 'missing').sentence).toBe('No hay ningún chat compartido en este enlace.')
  })

  it('prefers the language chosen in the app (its cookie) and falls back to English', () => {
    expect(sharedPageWords(eventWith({ 'accept-language': 'de-DE', 'cookie': 'plugboard_locale=es' }), 'missing').lang).toBe('es')
    expect(sharedPageWords(eventWith({ 'accept-language': 'ja', 'cookie': 'plugboard_locale=klingon' }), 'missing')).toEqual({
      lang: 'en',
      heading: 'No shared chat here',
      sentence: 'There is no shared chat at this link.',
    })
    expect(sharedPageWords(eventWith({}), 'revoked').heading).toBe('This link was revoked')
  })

  it('writes the language into the page, escaped', () => {
    expect(sharedPageStatusHtml('Gone', 'Gone.', 'de')).toContain('<html lang="de">')
    expect(sharedPageStatusHtml('Gone', 'Gone.', '"><script>')).not.toContain('<script>')
    expect(sharedPageStatusHtml('Gone', 'Gone.')).toContain('<html lang="en">')
  })
})
