/**
 * Picks the language before the first render (the user's earlier choice, else the first of the browser's languages
 * the app has, else English), fetches its first-screen text, and gives templates `$t` and `$i18n.locale`.
 */
import { reactive } from 'vue'
import { DEFAULT_LOCALE, LOCALE_COOKIE, LOCALES, loadLocale, useI18n } from '~/composables/useI18n'

function chosenBefore(): string | undefined {
  const match = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]*)`).exec(document.cookie)
  const code = match ? decodeURIComponent(match[1]!) : undefined
  return LOCALES.some(item => item.code === code) ? code : undefined
}

function fromBrowser(): string | undefined {
  for (const language of navigator.languages ?? [navigator.language]) {
    const code = language.toLowerCase().split('-')[0]
    if (LOCALES.some(item => item.code === code)) return code
  }
  return undefined
}

export default defineNuxtPlugin({
  name: 'plugboard:i18n',
  async setup(nuxtApp) {
    const i18n = useI18n()
    const code = chosenBefore() ?? fromBrowser() ?? DEFAULT_LOCALE
    // a catalog that cannot be fetched (a deploy in between) leaves the app in English rather than blank
    i18n.locale.value = await loadLocale(code).then(() => code, () => loadLocale(DEFAULT_LOCALE).then(() => DEFAULT_LOCALE))
    nuxtApp.vueApp.config.globalProperties.$t = i18n.t
    nuxtApp.vueApp.config.globalProperties.$i18n = reactive({ locale: i18n.locale })
  },
})

declare module 'vue' {
  interface ComponentCustomProperties {
    $t: ReturnType<typeof useI18n>['t']
    $i18n: { readonly locale: string }
  }
}
