/** GET /api/auth/status: whether the server wants a password and whether this browser is signed in. */
export interface AccessStatus {
  passwordRequired: boolean
  signedIn: boolean
}

let pending: Promise<AccessStatus> | undefined

/**
 * The server's access status, asked once per page load. When the server cannot be asked the app proceeds as if
 * it were open: every /api call then says what is wrong itself.
 */
export function loadAccessStatus(): Promise<AccessStatus> {
  return (pending ??= $fetch<AccessStatus>('/api/auth/status').catch(() => ({ passwordRequired: false, signedIn: true })))
}
