import { shallowRef } from 'vue'

/** What the sidebar shows about this device's sync. */
export type SyncStatus =
  | { state: 'starting' }
  | { state: 'consent', localChats: number }
  | { state: 'syncing', pending: number }
  | { state: 'synced' }
  | { state: 'pending', pending: number }
  | { state: 'offline', pending: number }
  | { state: 'error', pending: number, message: string }

/** The page's one sync status (the app is client-only: no request shares this module). */
export const syncStatus = shallowRef<SyncStatus>({ state: 'starting' })
