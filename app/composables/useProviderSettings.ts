import { computed } from 'vue'
import { useLocalStorage } from '@vueuse/core'
import { useNuxtApp, useRuntimeConfig, useState } from '#imports'
import type { NuxtApp } from '#app'
import type { ChatModel } from '#shared/loop/chat-model'
import { createLazyOpenAICompatibleModel } from '~/utils/chat/provider/lazy-chat-model'
import type { ProviderSettings, ServerConfig } from '~/utils/chat/provider/provider-types'
import {
  PROVIDER_SETTINGS_STORAGE_KEY,
  mergeProviderSettings,
  parseStoredProviderSettings,
  resolveModelConfig,
} from '~/utils/chat/provider/provider-settings'
import type { ProviderSettingsPatch } from '~/utils/chat/provider/provider-settings'

/** One GET /api/config per app instance, however many components ask. */
const configRequests = new WeakMap<NuxtApp, Promise<void>>()

/**
 * The chosen provider, remembered in localStorage ('plugboard:provider:v1') and kept in step across tabs.
 * Keys stay in this browser: with the user's own OpenRouter key the browser calls openrouter.ai directly;
 * only the demo and the server-key proxy go through this app's server, and those carry no key.
 *
 * Until something is saved the defaults follow the server: OpenRouter via the proxy when the server holds
 * a key, else the offline demo.
 */
export function useProviderSettings() {
  const nuxtApp = useNuxtApp()
  const runtimeConfig = useRuntimeConfig()
  const serverConfig = useState<ServerConfig | undefined>('plugboard:server-config', () => undefined)
  const serverConfigError = useState<string | undefined>('plugboard:server-config-error', () => undefined)

  let configLoaded = configRequests.get(nuxtApp)
  if (!configLoaded) {
    configLoaded = import.meta.server
      ? Promise.resolve()
      : $fetch<ServerConfig>('/api/config').then(
          (config) => {
            serverConfig.value = config
            serverConfigError.value = undefined
          },
          (error: unknown) => {
            // Without the config the app still works on the demo model; say why the server options are missing.
            serverConfigError.value = `Could not load the server configuration: ${error instanceof Error ? error.message : String(error)}`
          },
        )
    configRequests.set(nuxtApp, configLoaded)
  }

  // The raw string: parsing (and recovering from corrupt data) is parseStoredProviderSettings' job.
  const stored = useLocalStorage<string | null>(PROVIDER_SETTINGS_STORAGE_KEY, null, { listenToStorageChanges: true })

  const parsed = computed(() => parseStoredProviderSettings(stored.value, serverConfig.value))
  const settings = computed<ProviderSettings>(() => parsed.value.settings)
  /** Set when stored settings were unreadable and defaults were used instead. */
  const warning = computed(() => parsed.value.warning)

  const modelConfig = computed(() => resolveModelConfig(settings.value, {
    origin: import.meta.client ? window.location.origin : '',
    serverConfig: serverConfig.value,
    appUrl: String(runtimeConfig.public.appUrl ?? ''),
    appTitle: String(runtimeConfig.public.appTitle ?? 'Plugboard'),
  }))
  const label = computed(() => modelConfig.value.label)

  /** Applies `patch` to the current settings and stores the result. */
  function save(patch: ProviderSettingsPatch) {
    stored.value = JSON.stringify(mergeProviderSettings(settings.value, patch))
  }

  /** Forgets the saved settings (and any saved key): the server-driven defaults apply again. */
  function reset() {
    stored.value = null
  }

  /** A model for the current settings; build one per request so a settings change applies to the next send. */
  function createModel(): ChatModel {
    const { baseURL, apiKey, model, headers } = modelConfig.value
    return createLazyOpenAICompatibleModel({ baseURL, apiKey, model, headers })
  }

  return {
    settings,
    serverConfig,
    serverConfigError,
    /** Resolves once GET /api/config has answered (or failed). */
    ready: configLoaded,
    warning,
    modelConfig,
    label,
    save,
    reset,
    createModel,
  }
}
