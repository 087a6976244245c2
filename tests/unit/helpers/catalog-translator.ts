import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fillTemplate } from '#shared/errors/coded-text'

type Catalog = { [key: string]: string | Catalog }

/** A stand-in for the app's `t` in `language` (i18n/more): the key's entry filled, or the key when it has none. */
export function catalogTranslator(language: string) {
  const catalog = JSON.parse(readFileSync(join(import.meta.dirname, `../../../i18n/more/${language}.json`), 'utf8')) as Catalog
  return (key: string, values?: Record<string, unknown>) => {
    const text = key.split('.').reduce<string | Catalog | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), catalog)
    return typeof text === 'string' ? fillTemplate(text, values as Record<string, string>) : key
  }
}
