import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { generateJSON } from '@intlify/bundle-utils'
import { describe, expect, it } from 'vitest'

const LOCALES_DIR = join(import.meta.dirname, '../../i18n/locales')
/** The rest of each language's text, fetched after the first screen (modules/i18n-more-catalogs.ts). */
const MORE_DIR = join(import.meta.dirname, '../../i18n/more')

type Catalog = { [key: string]: string | Catalog }

const readPart = (dir: string, code: string) => JSON.parse(readFileSync(join(dir, `${code}.json`), 'utf8')) as Catalog

/** A language's whole catalog: the first screen's part and the rest, which share no top-level key. */
function read(code: string): Catalog {
  return { ...readPart(LOCALES_DIR, code), ...readPart(MORE_DIR, code) }
}

/** Every message of a catalog by its dotted key. */
function flatten(catalog: Catalog, prefix = ''): Map<string, string> {
  const messages = new Map<string, string>()
  for (const [key, value] of Object.entries(catalog)) {
    if (typeof value === 'string') messages.set(prefix + key, value)
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) messages.set(inner, text)
  }
  return messages
}

/** A message's named placeholders (`{count}`), sorted, once each. */
function placeholders(message: string): string[] {
  return [...new Set([...message.matchAll(/\{\s*([\w.]+)\s*\}/g)].map(match => match[1]!))].sort()
}

/** The number of plural forms (`one | many`). */
const pluralForms = (message: string) => message.split(' | ').length

const english = flatten(read('en'))
const others = readdirSync(LOCALES_DIR).filter(name => name.endsWith('.json') && name !== 'en.json').map(name => name.replace(/\.json$/, ''))

describe('UI catalogs', () => {
  it('holds English and at least two complete languages', () => {
    expect(others.sort()).toEqual(['de', 'es'])
    expect(readdirSync(MORE_DIR).filter(name => name.endsWith('.json')).sort()).toEqual(['de.json', 'en.json', 'es.json'])
    expect(english.size).toBeGreaterThan(100)
  })

  it('splits each language the same way: the first screen\'s part and the rest share no area', () => {
    for (const code of ['en', ...others]) {
      const first = Object.keys(readPart(LOCALES_DIR, code))
      const rest = Object.keys(readPart(MORE_DIR, code))
      expect(first.filter(area => rest.includes(area))).toEqual([])
      expect({ first: first.sort(), rest: rest.sort() }).toEqual({ first: Object.keys(readPart(LOCALES_DIR, 'en')).sort(), rest: Object.keys(readPart(MORE_DIR, 'en')).sort() })
    }
  })

  for (const code of others) {
    const catalog = flatten(read(code))

    it(`${code} has exactly English's keys`, () => {
      expect([...catalog.keys()].filter(key => !english.has(key))).toEqual([])
      expect([...english.keys()].filter(key => !catalog.has(key))).toEqual([])
    })

    it(`${code} uses the same placeholders and plural forms as English in every message`, () => {
      const mismatches = [...english].filter(([key, text]) => {
        const translated = catalog.get(key) ?? ''
        return placeholders(translated).join() !== placeholders(text).join() || pluralForms(translated) !== pluralForms(text)
      }).map(([key]) => key)
      expect(mismatches).toEqual([])
    })

    it(`${code} leaves no message empty`, () => {
      expect([...catalog].filter(([, text]) => !text.trim()).map(([key]) => key)).toEqual([])
    })
  }

  /** The compile errors of one catalog file, as the build would meet them (a stray brace, `@` or `|` breaks a message). */
  function compileErrors(source: string): string[] {
    const errors: string[] = []
    generateJSON(source, { type: 'plain', env: 'production', jit: true, strictMessage: true, escapeHtml: false, forceStringify: false, onError: message => errors.push(message) })
    return errors
  }

  it('compiles every message of every file as the build does', () => {
    for (const code of ['en', ...others]) {
      for (const dir of [LOCALES_DIR, MORE_DIR]) expect(compileErrors(readFileSync(join(dir, `${code}.json`), 'utf8')), `${dir}/${code}.json`).toEqual([])
    }
    expect(compileErrors(JSON.stringify({ help: 'async function (args) { … }' }))).not.toEqual([])
  })

  it('finds a placeholder that differs (the check can fail)', () => {
    expect(placeholders('Rename “{title}”')).not.toEqual(placeholders('„{titel}“ umbenennen'))
    expect(placeholders('{count} results')).toEqual(placeholders('{count} Ergebnisse'))
  })
})
