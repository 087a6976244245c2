import { computed, watch } from 'vue'
import { useLocalStorage } from '@vueuse/core'
import { ensureConnectPermission } from '~/utils/chat/provider/connect-permission'
import { parseStoredProviderSettings, PROVIDER_SETTINGS_STORAGE_KEY, resolveModelConfig } from '~/utils/chat/provider/provider-settings'

/**
 * Keeps the page allowed to reach the model endpoint the user chose: the server's CSP lists only the endpoints
 * the connect cookie names, so choosing a new one (in Settings, or in another tab) reloads the page once.
 * Reads the stored settings itself: the endpoint's origin does not depend on the server's configuration, and
 * asking for that here would fetch it before anything else is ready.
 */
export default defineNuxtPlugin(() => {
  const stored = useLocalStorage<string | null>(PROVIDER_SETTINGS_STORAGE_KEY, null, { listenToStorageChanges: true })
  const baseURL = computed(() => resolveModelConfig(parseStoredProviderSettings(stored.value).settings, {
    origin: window.location.origin,
    appUrl: '',
    appTitle: '',
  }).baseURL)
  watch(baseURL, url => ensureConnectPermission(url), { immediate: true })
})
