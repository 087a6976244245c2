import { watch } from 'vue'
import { useProviderSettings } from '~/composables/useProviderSettings'
import { ensureConnectPermission } from '~/utils/chat/connect-permission'

/**
 * Keeps the page allowed to reach the model endpoint the user chose: the server's CSP lists only the endpoints
 * the connect cookie names, so choosing a new one (in Settings, or in another tab) reloads the page once.
 */
export default defineNuxtPlugin(() => {
  const { modelConfig } = useProviderSettings()
  watch(() => modelConfig.value.baseURL, baseURL => ensureConnectPermission(baseURL), { immediate: true })
})
