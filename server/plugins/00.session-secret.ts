import { resolveSessionPassword } from '../utils/security/session-secret'

/**
 * Before the first request: make sure sessions have a sealing secret. nuxt-auth-utils reads
 * `NUXT_SESSION_PASSWORD` from the environment on first use, so the resolved secret is put there.
 */
export default defineNitroPlugin(() => {
  const config = useRuntimeConfig()
  const configured = process.env.NUXT_SESSION_PASSWORD || (config.session as { password?: string } | undefined)?.password
  process.env.NUXT_SESSION_PASSWORD = resolveSessionPassword(configured)
})
