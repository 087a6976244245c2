// Sentences with codes: every code the app may receive has its English, German and Spanish entry with the same
// parameters; the English the answer carries is exactly the catalog's; a hostile body never becomes a code.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { codedTextOfBody, fillTemplate } from '#shared/errors/coded-text'
import { APP_MESSAGES } from '#shared/errors/app-messages'
import { SERVER_MESSAGES } from '#shared/errors/server-messages'
import { LOOP_MESSAGES } from '#shared/loop/loop-messages'
import { explainMcpError } from '#shared/mcp/mcp-error-text'
import { MCP_MESSAGES } from '#shared/mcp/mcp-messages'
import { PROVIDER_MESSAGES } from '#shared/errors/provider-messages'
import { TOOL_MESSAGES } from '#shared/errors/tool-messages'
import { passkeyRefusal } from '~~/server/utils/accounts/passkey-refusal'
import { userError } from '~~/server/utils/http/user-error'
import { sayCodedText, sayCodedTexts, sayErrorText } from '~/utils/chat/coded-text'
import { passkeyErrorMessage } from '~/utils/chat/provider/passkey-errors'
import { ShareLinkError } from '~/utils/chat/share/share-links-api'

type Catalog = { [key: string]: string | Catalog }
const TEMPLATES: Record<string, string> = { ...MCP_MESSAGES, ...SERVER_MESSAGES, ...APP_MESSAGES, ...LOOP_MESSAGES, ...PROVIDER_MESSAGES, ...TOOL_MESSAGES }
const LANGUAGES = ['en', 'de', 'es'] as const

function codesOf(code: string): Record<string, string> {
  const catalog = JSON.parse(readFileSync(join(import.meta.dirname, `../../i18n/more/${code}.json`), 'utf8')) as { codes: Catalog }
  const flat: Record<string, string> = {}
  const walk = (node: Catalog, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'string') flat[prefix + key] = value
      else walk(value, `${prefix}${key}.`)
    }
  }
  walk(catalog.codes, '')
  return flat
}

const placeholders = (text: string) => [...new Set([...text.matchAll(/\{\s*(\w+)\s*\}/g)].map(match => match[1]))].sort()

/** A stand-in for the app's `t`: the catalog's text with its placeholders filled, or the key when it has none. */
function translator(code: string) {
  const codes = codesOf(code)
  return (key: string, values?: Record<string, unknown>) => {
    const text = codes[key.replace(/^codes\./, '')]
    return text === undefined ? key : fillTemplate(text, values as Record<string, string>)
  }
}

describe('coded messages', () => {
  it('every code has its entry in en, de and es, with the template\'s parameters, and no entry is left without a code', () => {
    for (const language of LANGUAGES) {
      const codes = codesOf(language)
      expect(Object.keys(codes).sort(), language).toEqual(Object.keys(TEMPLATES).sort())
      for (const [code, template] of Object.entries(TEMPLATES)) {
        expect(codes[code]!.trim(), `${language} ${code}`).not.toBe('')
        expect(placeholders(codes[code]!), `${language} ${code}`).toEqual(placeholders(template))
      }
    }
  })

  it('the English catalog says exactly what the code\'s English template says', () => {
    expect(codesOf('en')).toEqual(TEMPLATES)
  })

  it('the translations are translations, not English copies', () => {
    for (const language of ['de', 'es'] as const) {
      const codes = codesOf(language)
      const copied = Object.entries(TEMPLATES).filter(([code, template]) => !/^\{\w+\}$/.test(template) && codes[code] === template).map(([code]) => code)
      expect(copied, language).toEqual([])
    }
  })

  it('an MCP failure keeps its English message and carries the code that says it', () => {
    const cases: Array<[unknown, string]> = [
      [new TypeError('Failed to fetch'), 'mcp.unreachable'],
      [new StreamableHTTPError(502, 'Bad Gateway'), 'mcp.unreachableViaRelay'],
      [new StreamableHTTPError(403, 'nope'), 'mcp.tokenRefused'],
      [new McpError(-32001, 'Request timed out'), 'mcp.timedOut'],
      [new McpError(-32602, 'Unknown tool: frobnicate'), 'mcp.serverSaid'],
      [new Error(''), 'mcp.unknown'],
    ]
    for (const [error, code] of cases) {
      const explained = explainMcpError(error)
      expect(explained.text.code).toBe(code)
      expect(explained.text.message).toBe(explained.message)
      expect(fillTemplate(MCP_MESSAGES[code as keyof typeof MCP_MESSAGES], explained.text.params)).toBe(explained.message)
    }
    expect(explainMcpError(new StreamableHTTPError(502, 'Bad Gateway')).text.params).toEqual({ status: 502 })
  })

  it('the app says a code in the user\'s language, and falls back to the English for a code it does not know', () => {
    const german = translator('de')
    const unreachable = explainMcpError(new StreamableHTTPError(504, 'Gateway Timeout')).text
    expect(sayCodedText(german, unreachable)).toBe('Der Server war über den Server dieser App nicht erreichbar (HTTP 504). Prüfen Sie, ob er läuft und ob seine Adresse stimmt.')
    expect(sayCodedText(german, { code: 'server.fromTheFuture', params: {}, message: 'Something new.' })).toBe('Something new.')
    expect(sayCodedTexts(german, [{ code: 'mcp.gaveUp', params: { attempts: 8 }, message: '' }, unreachable])).toMatch(/^Nach 8 Versuchen, .* aufgegeben\. Der Server war/)
    expect(sayCodedTexts(german, undefined, 'as it came')).toBe('as it came')
    expect(sayErrorText(german, new ShareLinkError('This link was revoked: its owner no longer shares this chat.', 410, { code: 'server.share.revoked', params: {}, message: '' }))).toBe('Dieser Link wurde widerrufen: Sein Besitzer teilt diesen Chat nicht mehr.')
    expect(sayErrorText(german, new Error('plain'))).toBe('plain')
  })

  it('a server refusal keeps its English message and sends the code and parameters in data', () => {
    const error = userError(429, 'Too Many Requests', 'server.share.tooMany', { max: 50 })
    expect(error.statusCode).toBe(429)
    expect(error.message).toBe('You have 50 shared links already: revoke one (Settings → Data) before you share another chat.')
    expect(error.data).toEqual({ code: 'server.share.tooMany', params: { max: 50 } })
    let refusal: { message: string, data?: unknown } | undefined
    try {
      passkeyRefusal(new Error('signature mismatch'))
    }
    catch (thrown) {
      refusal = thrown as typeof refusal
    }
    expect(refusal?.message).toBe('This passkey answer could not be verified. Try again.')
    expect(refusal?.data).toEqual({ code: 'server.passkey.unverified', params: {} })
  })

  it('reads a code from an error body as h3 sends it, also when a library wrapped it once', () => {
    const body = { statusCode: 400, message: 'Give your account a name of 1 to 64 characters.', data: { code: 'server.account.nameLength', params: { max: 64 } } }
    expect(codedTextOfBody(body)).toEqual({ code: 'server.account.nameLength', params: { max: 64 }, message: body.message })
    const wrapped = { statusCode: 400, message: 'Give your account a name of 1 to 64 characters.', data: body }
    expect(codedTextOfBody(wrapped)?.code).toBe('server.account.nameLength')
    expect(passkeyErrorMessage({ data: wrapped }, translator('es'))).toBe('Ponle a tu cuenta un nombre de 1 a 64 caracteres.')
    expect(passkeyErrorMessage({ data: wrapped })).toBe(body.message)
    // the access password's refusal, as the sign-in page shows it
    const wrongPassword = { statusCode: 401, message: 'That password is not right.', data: { code: 'server.auth.wrongPassword', params: {} } }
    expect(passkeyErrorMessage({ data: wrongPassword }, translator('de'))).toBe('Dieses Passwort stimmt nicht.')
  })

  it('a malformed or hostile body is no code: the English shown as it came', () => {
    const hostile: unknown[] = [
      null, 'text', 42, [], {},
      { message: 'no data' },
      { message: 'x', data: { code: 42 } },
      { message: 'x', data: { code: '__proto__.polluted' } },
      { message: 'x', data: { code: 'codes with spaces' } },
      { message: 'x', data: { code: `a${'b'.repeat(200)}` } },
      { message: 42, data: { code: 'server.share.revoked' } },
      // wrapped twice: looked into once only
      { message: 'x', data: { message: 'y', data: { message: 'z', data: { code: 'server.share.revoked' } } } },
    ]
    for (const body of hostile) expect(codedTextOfBody(body)).toBeUndefined()
    // parameters that are not plain text or numbers are dropped, not shown as [object Object]
    expect(codedTextOfBody({ message: 'x', data: { code: 'server.rateLimited', params: { limit: { evil: true } } } })?.params).toEqual({})
    expect(fillTemplate('Try again in {seconds} s, not {missing}.', { seconds: 3 })).toBe('Try again in 3 s, not {missing}.')
  })
})
