import { isSharedViewPath } from '~/utils/chat/share/shared-view-path'
import { loadAccessStatus } from '~/utils/chat/provider/access-status'

/**
 * In password mode (NUXT_ACCESS_PASSWORD) or with accounts (NUXT_ACCOUNTS=passkeys) every page but the sign-in page
 * (and, with accounts, an invite's page) waits for the browser to sign in.
 */
export default defineNuxtRouteMiddleware(async (to) => {
  // a shared chat is read with its link alone: the link is its key
  if (import.meta.server || to.path === '/sign-in' || isSharedViewPath(to.path)) return
  const status = await loadAccessStatus()
  if (status.accounts === 'passkeys' && to.path.startsWith('/invite/')) return
  if ((status.passwordRequired || status.accounts === 'passkeys') && !status.signedIn) {
    return navigateTo({ path: '/sign-in', query: to.fullPath === '/' ? {} : { redirect: to.fullPath } }, { replace: true })
  }
})
