import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/** Where a generated session secret is kept when `NUXT_SESSION_PASSWORD` is unset (`.data/` is git-ignored). */
export const SESSION_SECRET_FILE = '.data/session-password'

/** iron-webcrypto, which seals the session cookie, needs at least 32 characters. */
export const MIN_SESSION_PASSWORD_LENGTH = 32

/**
 * The secret that seals session cookies: `configured` (from `NUXT_SESSION_PASSWORD`) when set, else the one kept
 * in `file`, created on first start (readable by the owner only), so a single machine needs no set-up and
 * sessions survive restarts. A configured secret that is too short is refused loudly: a weak seal is worse
 * than a server that does not start.
 */
export function resolveSessionPassword(configured: string | undefined, file = SESSION_SECRET_FILE): string {
  const given = configured?.trim()
  if (given) {
    if (given.length < MIN_SESSION_PASSWORD_LENGTH) {
      throw new Error(`NUXT_SESSION_PASSWORD must be at least ${MIN_SESSION_PASSWORD_LENGTH} characters long (it has ${given.length}).`)
    }
    return given
  }
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim()
    if (kept.length >= MIN_SESSION_PASSWORD_LENGTH) return kept
  }
  const generated = randomBytes(32).toString('hex')
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${generated}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return generated
}
