import { toValue, watch, type MaybeRefOrGetter } from 'vue'
import type { AppUpdate } from '~/plugins/pwa.client'

const TOAST_ID = 'app-update'
const READY = 'A new version is ready'
const AFTER_REPLY = 'Reloads when the reply has finished'

/**
 * Shows "A new version is ready — Reload" when the service worker has installed a newer build. Nothing reloads until
 * the user clicks Reload, and a click while a reply is streaming waits for the reply to finish first: a reload would
 * cut it off.
 * @param busy A reply is streaming in this tab.
 */
export function useAppUpdatePrompt(busy: MaybeRefOrGetter<boolean>) {
  const update = useNuxtApp().$appUpdate as AppUpdate | undefined
  const toast = useToast()
  if (!update) return

  function reloadWhenIdle() {
    if (!toValue(busy)) {
      void update!.reload()
      return
    }
    toast.update(TOAST_ID, { description: AFTER_REPLY, actions: [] })
    const stop = watch(() => toValue(busy), (streaming) => {
      if (streaming) return
      stop()
      void update!.reload()
    })
  }

  watch(update.needRefresh, (ready) => {
    if (!ready) return
    toast.add({
      id: TOAST_ID,
      title: READY,
      icon: 'i-lucide-refresh-cw',
      // stays until the user reloads: the old version keeps working meanwhile
      duration: 0,
      progress: false,
      close: false,
      actions: [{ label: 'Reload', color: 'primary', variant: 'solid', onClick: reloadWhenIdle }],
    })
  }, { immediate: true })
}
