import { shallowRef } from 'vue'
import type { CodedText } from '#shared/errors/coded-text'

/** What the sidebar shows about this device's sync. */
export type SyncStatus =
  | { state: 'starting' }
  | { state: 'consent', localChats: number }
  | { state: 'syncing', pending: number }
  | { state: 'synced' }
  | { state: 'pending', pending: number }
  | { state: 'offline', pending: number }
  /** `message` is the English; `text` the same as a code, when it has one, for the user's language. */
  | { state: 'error', pending: number, message: string, text?: CodedText }

/** The page's one sync status (the app is client-only: no request shares this module). */
export const syncStatus = shallowRef<SyncStatus>({ state: 'starting' })
