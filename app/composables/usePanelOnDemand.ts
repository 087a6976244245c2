import { shallowRef } from 'vue'

/**
 * A panel (slide-over, menu) whose code loads on its first opening: the first screen does not need it. `loaded`
 * stays true once set, so the panel keeps its state between openings; `show` loads and opens it.
 */
export function usePanelOnDemand() {
  const loaded = shallowRef(false)
  const open = shallowRef(false)
  function show() {
    loaded.value = true
    open.value = true
  }
  return { loaded, open, show }
}
