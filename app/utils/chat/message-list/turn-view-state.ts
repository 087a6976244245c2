import { inject, provide, shallowRef, watch, type InjectionKey, type ShallowRef } from 'vue'
import { setNewest } from '~/utils/chat/recent-map'

/**
 * What the user changed in a turn's view (a tool card's details opened, a message being edited and its draft),
 * kept by the message list while the turn is scrolled out of its virtual list and unmounted, so the turn comes
 * back as it was left. Keys name the message or call and what is kept; a value equal to its default is not kept.
 */
export interface TurnViewState {
  has: (key: string) => boolean
  get: (key: string) => unknown
  set: (key: string, value: unknown) => void
  delete: (key: string) => void
}

/** The most values kept: the oldest set goes first. A few hundred opened cards are far more than a user opens. */
const MAX_KEPT = 300

export function createTurnViewState(maxKept = MAX_KEPT): TurnViewState {
  const values = new Map<string, unknown>()
  return {
    has: key => values.has(key),
    get: key => values.get(key),
    set: (key, value) => setNewest(values, key, value, maxKept),
    delete: key => void values.delete(key),
  }
}

export const turnViewStateKey: InjectionKey<TurnViewState> = Symbol('turn-view-state')

/** The message list keeps its turns' view state for the page's life. */
export function provideTurnViewState(): TurnViewState {
  const state = createTurnViewState()
  provide(turnViewStateKey, state)
  return state
}

/**
 * A turn's view state under `key`, starting at `initial`: inside a message list it outlives the component (the turn
 * unmounted when scrolled away comes back with it), elsewhere (a shared chat's preview) it is the component's own.
 */
export function useTurnViewState<T>(key: string | undefined, initial: T): { value: ShallowRef<T>, remembered: boolean } {
  const state = inject(turnViewStateKey, undefined)
  const remembered = !!state && key !== undefined && state.has(key)
  const value = shallowRef(remembered ? state!.get(key!) as T : initial)
  if (state && key !== undefined) {
    watch(value, (next) => {
      if (Object.is(next, initial)) state.delete(key)
      else state.set(key, next)
    }, { flush: 'sync' })
  }
  return { value, remembered }
}

/** Forgets what `useTurnViewState` kept under `key` (an edit saved or cancelled: its draft is done with). */
export function useForgetTurnViewState(): (key: string) => void {
  const state = inject(turnViewStateKey, undefined)
  return key => state?.delete(key)
}
