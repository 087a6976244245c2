/**
 * The app's translation runtime: the chosen language, its catalogs, and `t`/`n` for components (`useI18n()` in
 * scripts, `$t` and `$i18n.locale` in templates, from app/plugins/i18n.ts). It reads the catalogs as plain JSON
 * (app/utils/i18n-message.ts fills them in), which keeps the first screen light next to vue-i18n's runtime.
 * A language's catalog is two files, each fetched when first needed: `i18n/locales/<code>.json` (what the chat's
 * first screen shows) and `i18n/more/<code>.json` (the rest, app/composables/more-messages.ts).
 */
import { computed, ref, shallowReactive } from 'vue'
import { formatMessage } from '~/utils/i18n-message'

export interface LocaleInfo { code: string, language: string, name: string }

export const LOCALES: readonly LocaleInfo[] = [
  { code: 'en', language: 'en-US', name: 'English' },
  { code: 'de', language: 'de-DE', name: 'Deutsch' },
  { code: 'es', language: 'es-ES', name: 'Español' },
]
export const DEFAULT_LOCALE = 'en'
/** Keeps the user's choice across reloads (the name @nuxtjs/i18n used, so earlier choices still apply). */
export const LOCALE_COOKIE = 'plugboard_locale'

type Messages = Record<string, unknown>

const FIRST_SCREEN: Record<string, () => Promise<{ default: Messages }>> = {
  en: () => import('../../i18n/locales/en.json'),
  de: () => import('../../i18n/locales/de.json'),
  es: () => import('../../i18n/locales/es.json'),
}

const locale = ref(DEFAULT_LOCALE)
const locales = computed(() => LOCALES as LocaleInfo[])
const catalogs = shallowReactive<Record<string, Messages>>({})
const firstScreenLoading = new Map<string, Promise<void>>()

function merge(target: Messages, source: Messages): Messages {
  const out: Messages = { ...target }
  for (const [key, value] of Object.entries(source)) {
    const before = out[key]
    out[key] = value && typeof value === 'object' && before && typeof before === 'object'
      ? merge(before as Messages, value as Messages)
      : value
  }
  return out
}

/** Adds messages to a language's catalog (a later part of it); text shown with them updates. */
function mergeLocaleMessage(code: string, messages: Messages) {
  catalogs[code] = merge(catalogs[code] ?? {}, messages)
}

function lookup(key: string): string | undefined {
  let node: unknown = catalogs[locale.value]
  for (const step of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined
    node = (node as Messages)[step]
  }
  return typeof node === 'string' ? node : undefined
}

/**
 * The text of `key` in the language shown, its placeholders filled from `values`; `plural` (or a number as the
 * second argument) picks the form. A key not (yet) in the catalog shows as itself.
 */
function t(key: string, values?: Record<string, unknown> | unknown[] | number, plural?: number): string {
  const source = lookup(key)
  if (source === undefined) return key
  if (typeof values === 'number') return formatMessage(source, {}, values)
  return formatMessage(source, values, plural)
}

/** A number written the way the language shown writes it. */
function n(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(LOCALES.find(item => item.code === locale.value)?.language ?? locale.value, options).format(value)
}

/** Fetches the first-screen part of `code`'s catalog; once per language. */
export function loadLocale(code: string): Promise<void> {
  const loader = FIRST_SCREEN[code]
  if (!loader) return Promise.reject(new Error(`The app has no language "${code}".`))
  let pending = firstScreenLoading.get(code)
  if (!pending) {
    pending = loader().then(
      module => mergeLocaleMessage(code, module.default),
      (error: unknown) => {
        firstScreenLoading.delete(code)
        throw error
      },
    )
    firstScreenLoading.set(code, pending)
  }
  return pending
}

/** Shows the app in `code` (its text fetched first) and keeps the choice for the next visit. */
async function setLocale(code: string): Promise<void> {
  await loadLocale(code)
  locale.value = code
  document.cookie = `${LOCALE_COOKIE}=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`
}

const i18n = { t, n, locale, locales, setLocale, mergeLocaleMessage }

export type I18n = typeof i18n

/** The translation functions and the language state; the same object everywhere. */
export function useI18n(): I18n {
  return i18n
}
