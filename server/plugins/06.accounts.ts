import { parseAccountsMode } from '../utils/accounts/accounts-mode'

/** Says at start-up which sign-in the server uses; accounts win over the access password when both are set. */
export default defineNitroPlugin(() => {
  const config = useRuntimeConfig()
  if (parseAccountsMode(config.accounts) !== 'passkeys') return
  console.info('[accounts] Accounts with passkeys are on (NUXT_ACCOUNTS=passkeys): the first account made is the admin.')
  if (String(config.accessPassword ?? '')) console.warn('[accounts] NUXT_ACCESS_PASSWORD is ignored: accounts are on, and they decide who may sign in.')
})
