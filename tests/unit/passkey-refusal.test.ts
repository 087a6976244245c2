// A passkey answer the WebAuthn verifier refuses gets an answer with words, never a 500.
import { createError } from 'h3'
import { describe, expect, it } from 'vitest'
import { passkeyRefusal } from '~~/server/utils/accounts/passkey-refusal'

function refusalOf(error: unknown) {
  try {
    passkeyRefusal(error)
  }
  catch (thrown) {
    return thrown as { statusCode: number, message: string }
  }
  throw new Error('passkeyRefusal returned')
}

describe('passkey refusals', () => {
  it('a use count that went backwards (a copied passkey) is a 401 that says so', () => {
    const refusal = refusalOf(new Error('Response counter value 1 was lower than expected 5'))
    expect(refusal.statusCode).toBe(401)
    expect(refusal.message).toContain('use count went backwards')
  })

  it('any other verifier error is a 400 asking to try again, without the verifier\'s details', () => {
    const refusal = refusalOf(new Error('Unexpected authentication response challenge "abc", expected "def"'))
    expect(refusal).toMatchObject({ statusCode: 400, message: 'This passkey answer could not be verified. Try again.' })
  })

  it('the routes\' own refusals pass through unchanged', () => {
    const own = createError({ statusCode: 403, message: 'This server has an admin already: ask them for an invite link.' })
    expect(refusalOf(own)).toBe(own)
  })
})
