import { loadAccessStatus } from '~/utils/chat/provider/access-status'

/** In password mode (NUXT_ACCESS_PASSWORD) every page but the sign-in page waits for the browser to sign in. */
export default defineNuxtRouteMiddleware(async (to) => {
  if (import.meta.server || to.path === '/sign-in') return
  const status = await loadAccessStatus()
  if (status.passwordRequired && !status.signedIn) {
    return navigateTo({ path: '/sign-in', query: to.fullPath === '/' ? {} : { redirect: to.fullPath } }, { replace: true })
  }
})
