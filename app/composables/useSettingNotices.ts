import { computed, shallowRef, toValue } from 'vue'
import type { MaybeRefOrGetter } from 'vue'
import { persistedSettingNotices } from '~/utils/chat/persisted-setting'
import { getToolPolicies } from '~/utils/chat/approvals/tool-policies'
import { getToolSettingsStore } from '~/utils/chat/catalog/tool-settings'

/**
 * Saved settings that could not be read and were reset to their defaults, as sentences for the user: a corrupt
 * value never crashes the app and is never dropped silently. `providerWarning` is the provider settings' own.
 */
export function useSettingNotices(providerWarning: MaybeRefOrGetter<string | undefined>) {
  const dismissed = shallowRef<ReadonlySet<string>>(new Set())
  const notices = computed(() => {
    const provider = toValue(providerWarning)
    return [...persistedSettingNotices.value, ...(provider ? [provider] : [])].filter(notice => !dismissed.value.has(notice))
  })

  /** Hides a notice the user has read (the defaults stay in use until they change the setting). */
  function dismiss(notice: string) {
    dismissed.value = new Set([...dismissed.value, notice])
  }

  /** Reads the saved settings that are otherwise read on first use, so a reset is told at start-up. */
  function check() {
    getToolPolicies()
    getToolSettingsStore()
  }

  return { notices, dismiss, check }
}
