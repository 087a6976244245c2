import { createHash, timingSafeEqual } from 'node:crypto'

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}

/** Whether `given` is the operator's password, compared in constant time (digests, so lengths do not leak). */
export function accessPasswordMatches(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || !expected) return false
  return timingSafeEqual(digest(given), digest(expected))
}

/**
 * A short fingerprint of the password, kept in the session at sign-in: when the operator changes
 * `NUXT_ACCESS_PASSWORD`, every session signed in with the old one stops being valid.
 */
export function accessPasswordFingerprint(password: string): string {
  return digest(`plugboard-access:${password}`).toString('base64url').slice(0, 22)
}
