import { shallowRef } from 'vue'
import type { SyncEngine, SyncEngineOptions } from './sync-engine'

/** The page's one engine, shared by every place that shows the device state (the sidebar, the phone's slide-over). */
export const sharedSyncEngine = shallowRef<SyncEngine>()
let users = 0
let starting: Promise<void> | undefined

/**
 * Starts the engine for the first user and stops it when the last one leaves: two views of the state must not run
 * two engines (each would push the same outbox). Resolves once the engine runs. The first user's `options` start it.
 */
export async function useSyncEngine(options: SyncEngineOptions = {}): Promise<() => void> {
  users += 1
  starting ??= import('./sync-engine').then(({ startSyncEngine }) => {
    if (users > 0) sharedSyncEngine.value = startSyncEngine(options)
  })
  await starting
  let released = false
  return () => {
    if (released) return
    released = true
    users -= 1
    if (users > 0) return
    sharedSyncEngine.value?.stop()
    sharedSyncEngine.value = undefined
    starting = undefined
  }
}
