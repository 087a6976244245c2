import { computed, shallowRef, toValue, watch, type MaybeRefOrGetter } from 'vue'
import type { AppUpdate } from '~/plugins/pwa.client'

/**
 * The state of "A new version is ready — Reload", shown when the service worker has installed a newer build. Nothing
 * reloads until the user asks, and asking while a reply is streaming waits for the reply to finish: a reload would
 * cut it off.
 * @param busy A reply is streaming in this tab.
 */
export function useAppUpdatePrompt(busy: MaybeRefOrGetter<boolean>) {
  const update = useNuxtApp().$appUpdate as AppUpdate | undefined
  /** The user chose Reload while a reply was streaming. */
  const waitingForReply = shallowRef(false)
  const ready = computed(() => update?.needRefresh.value ?? false)

  function reload() {
    if (!update) return
    if (!toValue(busy)) {
      void update.reload()
      return
    }
    waitingForReply.value = true
    const stop = watch(() => toValue(busy), (streaming) => {
      if (streaming) return
      stop()
      void update.reload()
    })
  }

  return { ready, waitingForReply, reload }
}
