/** GET /api/auth/status: whether the server wants a password or an account, and whether this browser is signed in. */
export interface AccessStatus {
  passwordRequired: boolean
  signedIn: boolean
  /** `passkeys` when the server has accounts (NUXT_ACCOUNTS); missing from older servers. */
  accounts?: 'off' | 'passkeys'
  /** With accounts: the signed-in account. */
  account?: { id: string, name: string, role: 'admin' | 'member' } | null
  /** With accounts: no account exists yet, so the first one made becomes the admin. */
  adminNeeded?: boolean
}

let pending: Promise<AccessStatus> | undefined

/**
 * The server's access status, asked once per page load. When the server cannot be asked the app proceeds as if
 * it were open: every /api call then says what is wrong itself.
 */
export function loadAccessStatus(): Promise<AccessStatus> {
  return (pending ??= $fetch<AccessStatus>('/api/auth/status').catch(() => ({ passwordRequired: false, signedIn: true })))
}
