/**
 * The rest of a language's UI text (i18n/more/<code>.json, compiled by modules/i18n-more-catalogs.ts): everything
 * the first screen does not show, fetched once it is ready, so the first load carries only the text it shows.
 * A page or panel that needs it sooner asks for it (`loadMoreMessages`), and text shown before it arrives fills in
 * when it does (the catalogs are reactive).
 */
import type { I18n } from '~/composables/useI18n'

const LOADERS: Record<string, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => import('virtual:plugboard-more-catalog/en'),
  de: () => import('virtual:plugboard-more-catalog/de'),
  es: () => import('virtual:plugboard-more-catalog/es'),
}

const loading = new Map<string, Promise<void>>()

type MessageTarget = Pick<I18n, 'mergeLocaleMessage' | 'locale'>

/** Fetches the rest of the text of `code` (by default the language shown); once per language. */
export function loadMoreMessages(i18n: MessageTarget, code: string = i18n.locale.value): Promise<void> {
  const loader = LOADERS[code]
  if (!loader) return Promise.resolve()
  let pending = loading.get(code)
  if (!pending) {
    pending = loader().then(
      module => i18n.mergeLocaleMessage(code, module.default),
      // a failed fetch (offline, a deploy in between) leaves the keys shown, and the next caller tries again
      () => void loading.delete(code),
    )
    loading.set(code, pending)
  }
  return pending
}
