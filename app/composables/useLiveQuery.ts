import { liveQuery, type Subscription } from 'dexie'
import { getCurrentScope, isRef, onScopeDispose, shallowRef, watch, type MaybeRefOrGetter, type ShallowRef, type WatchSource } from 'vue'

export interface UseLiveQueryOptions {
  /** Told when the query fails; the ref keeps its last value. @default console.error */
  onError?: (error: unknown) => void
}

/**
 * The result of a Dexie query, kept up to date whenever the data it read changes, in this tab or another one.
 * Re-runs the query from scratch when `deps` change; unsubscribes when the calling scope (component) is disposed.
 *
 * @param querier reads Dexie (only Dexie promises should be awaited inside, so Dexie can see what was read)
 * @param deps refs or getters the query depends on, e.g. the open thread id
 * @param initial the value until the first result arrives
 */
export function useLiveQuery<T>(
  querier: () => T | Promise<T>,
  deps?: WatchSource[] | MaybeRefOrGetter<unknown>,
  initial?: T,
  options: UseLiveQueryOptions = {},
): ShallowRef<T | undefined> {
  const { onError = (error: unknown) => console.error(error) } = options
  const result = shallowRef<T | undefined>(initial)
  let subscription: Subscription | undefined

  const subscribe = () => {
    subscription?.unsubscribe()
    subscription = liveQuery(querier).subscribe({
      next: (value) => { result.value = value },
      error: onError,
    })
  }

  if (Array.isArray(deps) || isRef(deps) || typeof deps === 'function') watch(deps as WatchSource, subscribe, { immediate: true })
  else subscribe()

  if (getCurrentScope()) {
    onScopeDispose(() => {
      subscription?.unsubscribe()
      subscription = undefined
    })
  }
  return result
}
