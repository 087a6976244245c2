// An import's summary writes its numbers as the user's language does (1.340 in German, 1,340 in English), while the
// plural form still follows the number.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importSummaryText } from '~/utils/chat/history-transfer/import-summary'
import { formatMessage } from '~/utils/i18n-message'

type Catalog = { [key: string]: string | Catalog }

function runtime(language: string, tag: string) {
  const catalog = JSON.parse(readFileSync(join(import.meta.dirname, `../../i18n/more/${language}.json`), 'utf8')) as Catalog
  const t = (key: string, values?: Record<string, unknown>, plural?: number) => {
    const text = key.split('.').reduce<string | Catalog | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), catalog)
    return typeof text === 'string' ? formatMessage(text, values, plural) : key
  }
  return { t, n: (value: number) => new Intl.NumberFormat(tag).format(value) }
}

describe('the import summary\'s numbers', () => {
  it('are written in the user\'s number format, with the plural form of the number', () => {
    const german = runtime('de', 'de-DE')
    const summary = importSummaryText(german.t, german.n, { chats: 1, messages: 1340, skippedHidden: 2500, skippedEmpty: 0 })
    expect(summary).toContain('1 Chat ')
    expect(summary).toContain('1.340 Nachrichten')
    expect(summary).toContain('2.500')
    const english = runtime('en', 'en-US')
    expect(importSummaryText(english.t, english.n, { chats: 12, messages: 1340, skippedHidden: 0, skippedEmpty: 0 })).toBe('Imported 12 chats, 1,340 messages.')
  })
})
