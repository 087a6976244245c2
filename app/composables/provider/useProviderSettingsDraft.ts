import { computed, ref, watch, type Ref } from 'vue'
import { useRuntimeConfig } from '#imports'
import type { ProviderSettings, ServerConfig } from '~/utils/chat/provider/provider-types'
import { mergeProviderSettings, parseStoredProviderSettings, resolveModelConfig, validateProviderSettings } from '~/utils/chat/provider/provider-settings'
import type { ProviderSettingsErrors } from '~/utils/chat/provider/provider-settings'
import { startOpenRouterSignIn } from '~/utils/chat/provider/openrouter-oauth'
import { allowConnectAndReload, takeSettingsDraft } from '~/utils/chat/provider/connect-permission'
import { useRunOnServer } from '~/composables/useRunOnServer'
import { useKeepRunningWithOwnKey } from '~/composables/useKeepRunningWithOwnKey'

export interface ProviderSettingsDraftSource {
  settings: ProviderSettings
  /** From GET /api/config; until it arrives the server-key option is hidden. */
  serverConfig?: ServerConfig
}

/** A plain deep copy (settings may arrive as reactive proxies, which structuredClone refuses). */
function copySettings(settings: ProviderSettings): ProviderSettings {
  return mergeProviderSettings(settings, {})
}

/**
 * Settings → Model's form: a copy of the settings (and of the two "keep running" choices) edited while the panel is
 * open, validated as the user leaves a field or saves, applied only by `submit()`; Cancel drops the copy.
 */
export function useProviderSettingsDraft(source: ProviderSettingsDraftSource, open: Ref<boolean>) {
  const runtimeConfig = useRuntimeConfig()
  const { t } = useI18n()
  const draft = ref<ProviderSettings>(copySettings(source.settings))
  const showAllErrors = ref(false)
  const touched = ref<Partial<Record<keyof ProviderSettingsErrors, boolean>>>({})
  const keyVisible = ref(false)
  const signInError = ref('')
  const signingIn = ref(false)

  const serverKey = computed(() => source.serverConfig?.serverKey === true)
  const runOnServer = useRunOnServer()
  /** Edited with the rest of the form: applied on Save, dropped on Cancel. */
  const runOnServerDraft = ref(runOnServer.value)
  const keepRunningOwnKey = useKeepRunningWithOwnKey()
  const keepRunningOwnKeyDraft = ref(keepRunningOwnKey.value)

  function resetDraft() {
    // After "Allow <endpoint>" reloaded the page, the form reopens with what the user had typed.
    const restored = takeSettingsDraft()
    const copy = restored ? parseStoredProviderSettings(JSON.stringify(restored), source.serverConfig).settings : copySettings(source.settings)
    // Without a server key the "server's key" option is not offered, so do not leave it selected.
    if (source.serverConfig && !source.serverConfig.serverKey && copy.openrouter.keySource === 'server') copy.openrouter.keySource = 'user'
    draft.value = copy
    runOnServerDraft.value = runOnServer.value
    keepRunningOwnKeyDraft.value = keepRunningOwnKey.value
    showAllErrors.value = false
    touched.value = {}
    keyVisible.value = false
    signInError.value = ''
  }

  watch(open, (isOpen) => {
    if (isOpen) resetDraft()
  }, { immediate: true })

  const errors = computed(() => validateProviderSettings(draft.value, source.serverConfig))
  function fieldError(field: keyof ProviderSettingsErrors): string | undefined {
    return showAllErrors.value || touched.value[field] ? errors.value[field] : undefined
  }

  const modelSource = computed(() => resolveModelConfig(draft.value, {
    origin: window.location.origin,
    serverConfig: source.serverConfig,
    appUrl: String(runtimeConfig.public.appUrl ?? ''),
    appTitle: String(runtimeConfig.public.appTitle ?? 'Plugboard'),
  }))

  /** The new settings when the form is valid (the "keep running" choices are applied now); every error shown if not. */
  function submit(): ProviderSettings | undefined {
    showAllErrors.value = true
    if (Object.keys(errors.value).length > 0) return undefined
    runOnServer.value = runOnServerDraft.value
    keepRunningOwnKey.value = keepRunningOwnKeyDraft.value
    return copySettings(draft.value)
  }

  function onAllowConnect() {
    allowConnectAndReload(modelSource.value.baseURL, draft.value)
  }

  function toggleKeyVisible() {
    keyVisible.value = !keyVisible.value
  }

  async function onSignIn() {
    signInError.value = ''
    signingIn.value = true
    try {
      await startOpenRouterSignIn(`${window.location.origin}/oauth/callback`)
    }
    catch (error) {
      signingIn.value = false
      signInError.value = t('settings.signInFailed', { reason: error instanceof Error ? error.message : String(error) })
    }
  }

  return {
    draft, touched, keyVisible, signInError, signingIn, serverKey, runOnServerDraft, keepRunningOwnKeyDraft, modelSource,
    fieldError, submit, onAllowConnect, toggleKeyVisible, onSignIn,
  }
}
