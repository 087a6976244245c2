/**
 * The words of a dead share link's page in the visitor's language: the one they chose in the app (its cookie), else
 * the first of their browser's languages the app has, else English. The page is plain HTML without the app, so the
 * server reads the few sentences it needs from the catalogs itself.
 */
import type { H3Event } from 'h3'
import { getCookie, getRequestHeader } from 'h3'
import de from '../../../i18n/more/de.json'
import en from '../../../i18n/more/en.json'
import es from '../../../i18n/more/es.json'

/** The app's cookie for the chosen language (app/composables/useI18n.ts). */
const LOCALE_COOKIE = 'plugboard_locale'

type Catalog = typeof en
const CATALOGS: Record<string, Catalog> = { en, de, es }

export interface SharedPageWords {
  lang: string
  heading: string
  sentence: string
}

function visitorLanguage(event: H3Event): string {
  const chosen = getCookie(event, LOCALE_COOKIE)
  if (chosen && chosen in CATALOGS) return chosen
  // "de-CH,de;q=0.9,en;q=0.8": the order is the preference, as browsers send it
  for (const part of (getRequestHeader(event, 'accept-language') ?? '').slice(0, 500).split(',')) {
    const code = part.trim().split(/[-;]/)[0]!.toLowerCase()
    if (code in CATALOGS) return code
  }
  return 'en'
}

/** The heading and sentence for a link that never was (404) or was revoked (410). */
export function sharedPageWords(event: H3Event, state: 'missing' | 'revoked'): SharedPageWords {
  const lang = visitorLanguage(event)
  const catalog = CATALOGS[lang]!
  return { lang, heading: catalog.share.page[state], sentence: catalog.codes.server.share[state] }
}
