import type { H3Event } from 'h3'

/** `NUXT_ACCOUNTS`: `off` (the default: one person, browser sessions) or `passkeys` (accounts that sign in with passkeys). */
export type AccountsMode = 'off' | 'passkeys'

/** Reads `NUXT_ACCOUNTS`; anything but `passkeys` is off, and an unknown value is said once in the log. */
export function parseAccountsMode(configured: unknown): AccountsMode {
  const value = String(configured ?? '').trim().toLowerCase()
  if (value === 'passkeys') return 'passkeys'
  if (value !== '' && value !== 'off' && !warned.has(value)) {
    warned.add(value)
    console.warn(`[accounts] NUXT_ACCOUNTS=${value} is not a known value (off, passkeys): accounts stay off.`)
  }
  return 'off'
}
const warned = new Set<string>()

/** The request's accounts mode. Accounts win over `NUXT_ACCESS_PASSWORD`: with both set, the password is not asked. */
export function accountsMode(event: H3Event): AccountsMode {
  return parseAccountsMode(useRuntimeConfig(event).accounts)
}

export function accountsOn(event: H3Event): boolean {
  return accountsMode(event) === 'passkeys'
}
