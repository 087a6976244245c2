import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatMessage } from '../../app/utils/i18n-message'

describe('formatMessage (the catalogs\' syntax, read in the browser)', () => {
  it('fills named and list placeholders, and shows a missing one as nothing', () => {
    expect(formatMessage('Rename “{title}”', { title: 'Trip' })).toBe('Rename “Trip”')
    expect(formatMessage('{0} of {1}', ['3', 7])).toBe('3 of 7')
    expect(formatMessage('Hello {name}!', {})).toBe('Hello !')
  })

  it('keeps {\'literal\'} escapes as their text', () => {
    expect(formatMessage('async function (args) {\'{\'} … {\'}\'}')).toBe('async function (args) { … }')
  })

  it('chooses plural forms by count as vue-i18n does, count filled from the plural', () => {
    const two = '{count} page | {count} pages'
    expect([0, 1, 2, 5].map(count => formatMessage(two, {}, count))).toEqual(['0 pages', '1 page', '2 pages', '5 pages'])
    const three = 'No results | 1 result | {count} results'
    expect([0, 1, 2, 9].map(count => formatMessage(three, { count }, count))).toEqual(['No results', '1 result', '2 results', '9 results'])
    expect(formatMessage('{count} file | {count} files', { count: '1,000' }, 1000)).toBe('1,000 files')
  })

  it('leaves text with no placeholders as it is', () => {
    expect(formatMessage('Nouveau chat — “ok”')).toBe('Nouveau chat — “ok”')
  })

  it('fills every placeholder of every catalog message, in every plural form', () => {
    const messages: string[] = []
    const walk = (node: unknown) => {
      if (typeof node === 'string') messages.push(node)
      else if (node && typeof node === 'object') Object.values(node).forEach(walk)
    }
    for (const folder of ['locales', 'more']) {
      for (const code of ['en', 'de', 'es']) walk(JSON.parse(readFileSync(join(import.meta.dirname, '../../i18n', folder, `${code}.json`), 'utf8')))
    }
    expect(messages.length).toBeGreaterThan(1000)
    for (const message of messages) {
      const names = [...message.matchAll(/\{\s*([A-Za-z_]\w*)\s*\}/g)].map(match => match[1]!)
      const values = Object.fromEntries(names.map(name => [name, `«${name}»`]))
      for (const count of [0, 1, 2]) {
        const out = formatMessage(message, values, count)
        expect(out, message).not.toMatch(/\{\s*[A-Za-z_]\w*\s*\}|\{'|'\}/)
      }
    }
  })
})
