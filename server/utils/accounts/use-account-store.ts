import { useDatabase } from '../database/use-database'
import { createAccountStore } from './account-store'
import type { AccountStore } from './account-store'

let store: Promise<AccountStore> | undefined

/** The instance's account store, on its database (opened on first use). */
export function useAccountStore(): Promise<AccountStore> {
  store ??= useDatabase().then(createAccountStore)
  // a database that failed to open is retried by the next request rather than remembered
  store.catch(() => { store = undefined })
  return store
}
