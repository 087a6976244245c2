import type { HistoryImportResult } from './history-transfer'

type Translate = (key: string, values?: Record<string, unknown>, plural?: number) => string

/**
 * "Imported 12 chats, 1,340 messages; skipped 3 hidden system messages." in the user's language, its numbers
 * written as the language writes them (`n`, Intl.NumberFormat) while the plural form follows the number itself.
 */
export function importSummaryText(t: Translate, n: (value: number) => string, counts: HistoryImportResult['counts']): string {
  const counted = (key: string, count: number) => t(key, { count: n(count) }, count)
  const chats = counted('history.chatCount', counts.chats)
  const messages = counted('history.messageCount', counts.messages)
  const skipped = [
    counts.skippedHidden ? counted('history.hiddenCount', counts.skippedHidden) : '',
    counts.skippedEmpty ? counted('history.emptyCount', counts.skippedEmpty) : '',
  ].filter(Boolean)
  if (skipped.length === 0) return t('history.imported', { chats, messages })
  const dropped = skipped.length === 2 ? t('history.both', { first: skipped[0], second: skipped[1] }) : skipped[0]
  return t('history.importedSkipped', { chats, messages, skipped: dropped })
}
