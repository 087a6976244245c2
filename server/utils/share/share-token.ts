import { createHash, randomBytes } from 'node:crypto'

/**
 * A share link's token: 32 random bytes (256 bits), base64url. The server keeps only its SHA-256, so a copy of
 * the database does not open anybody's shared chat; a plain hash is enough because the token is random, not a
 * password a person chose.
 */
export function newShareToken(): string {
  return randomBytes(32).toString('base64url')
}

/** The stored form of a token. */
export function hashShareToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** Whether `text` has a token's shape (43 base64url characters): anything else is not looked up at all. */
export function isShareTokenShape(text: string): boolean {
  return /^[\w-]{43}$/.test(text)
}
