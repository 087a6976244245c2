// A tool card's wrapper sentence (timed out, failed, cancelled) is the app's own words: the model and the stored row
// keep the English, the card says it in the user's language, and the tool's own error text stays as it wrote it.
import { describe, expect, it } from 'vitest'
import { ToolCancelledError } from '#shared/errors/tool-cancelled-error'
import { ToolExecutionError } from '#shared/errors/tool-execution-error'
import { readToolText } from '#shared/errors/tool-messages'
import { ToolTimeoutError } from '#shared/errors/tool-timeout-error'
import { sayToolError } from '~/utils/chat/coded-text'
import { catalogTranslator } from './helpers/catalog-translator'


describe('tool failures on the card in the user\'s language', () => {
  it('keeps the English the model reads', () => {
    expect(new ToolTimeoutError({ toolName: 'get_weather', timeoutMs: 5000 }).message).toBe('tool "get_weather" timed out after 5 s')
    expect(new ToolExecutionError({ toolName: 'calc', cause: new Error('Division by zero') }).message).toBe('tool "calc" failed: Division by zero')
    expect(new ToolCancelledError({ toolName: 'pick_file' }).message).toBe('tool "pick_file" was cancelled by the user')
  })

  it('says the wrapper in German and Spanish and keeps the tool\'s own words', () => {
    const german = catalogTranslator('de')
    expect(sayToolError(german, new ToolTimeoutError({ toolName: 'get_weather', timeoutMs: 5000 }).message)).toBe('Das Werkzeug „get_weather“ hat nach 5 s das Zeitlimit überschritten')
    expect(sayToolError(german, new ToolExecutionError({ toolName: 'calc', cause: new Error('Division by zero') }).message)).toBe('Das Werkzeug „calc“ ist fehlgeschlagen: Division by zero')
    expect(sayToolError(catalogTranslator('es'), 'Cancelled by the user.')).toBe('Cancelado por el usuario.')
    // a reason that itself looks like a wrapper is still the tool's words
    expect(readToolText('tool "a" failed: tool "b" timed out after 1 s')?.params).toEqual({ name: 'a', reason: 'tool "b" timed out after 1 s' })
  })

  it('leaves a tool\'s own error text as it wrote it', () => {
    expect(sayToolError(catalogTranslator('de'), 'The city "Atlantis" was not found.')).toBe('The city "Atlantis" was not found.')
    expect(readToolText('')).toBeUndefined()
  })
})
