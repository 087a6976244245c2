import type { ThreadRecord } from '~/db/types'

/** A heading of the chat list and the chats under it, most recently active first. */
export interface ThreadGroup {
  /** Stable across renders: 'pinned', 'today', 'yesterday', 'week', 'month', or the month as `YYYY-MM`. */
  key: string
  label: string
  threads: ThreadRecord[]
}

const DAY_LABELS = { pinned: 'Pinned', today: 'Today', yesterday: 'Yesterday', week: 'Previous 7 days', month: 'Previous 30 days' } as const

const monthFormats = new Map<string, Intl.DateTimeFormat>()

/** Local midnight `days` days before `now`'s day (calendar days, so a day of 23 or 25 hours counts once). */
function startOfDay(now: Date, daysBefore: number): number {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysBefore).getTime()
}

/**
 * The chat list's groups by last activity (`updatedAt`) in the browser's time zone: pinned chats first, then Today,
 * Yesterday, Previous 7 days, Previous 30 days, then one group per month (named with its year when not this year).
 * Chats keep the order they come in (most recent first); empty groups are left out. A date in the future (another
 * device's clock) counts as today. `locale` names the months (the browser's language without it); the UI shows the
 * fixed groups' names from its catalog by `key` (`label` is their English name).
 */
export function groupThreadsByDate(threads: readonly ThreadRecord[], now: Date = new Date(), locale?: string): ThreadGroup[] {
  const today = startOfDay(now, 0)
  const yesterday = startOfDay(now, 1)
  const week = startOfDay(now, 7)
  const month = startOfDay(now, 30)
  const groups = new Map<string, ThreadGroup>()
  const add = (key: string, label: () => string, thread: ThreadRecord) => {
    let group = groups.get(key)
    if (!group) groups.set(key, group = { key, label: label(), threads: [] })
    group.threads.push(thread)
  }
  for (const thread of threads) {
    if (thread.pinned) add('pinned', () => DAY_LABELS.pinned, thread)
    else if (thread.updatedAt >= today) add('today', () => DAY_LABELS.today, thread)
    else if (thread.updatedAt >= yesterday) add('yesterday', () => DAY_LABELS.yesterday, thread)
    else if (thread.updatedAt >= week) add('week', () => DAY_LABELS.week, thread)
    else if (thread.updatedAt >= month) add('month', () => DAY_LABELS.month, thread)
    else {
      const date = new Date(thread.updatedAt)
      const key = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}`
      add(key, () => monthLabel(date, now, locale), thread)
    }
  }
  const fixed = ['pinned', 'today', 'yesterday', 'week', 'month']
  const months = [...groups.keys()].filter(key => !fixed.includes(key)).sort().reverse()
  return [...fixed, ...months].flatMap(key => groups.get(key) ?? [])
}

function monthLabel(date: Date, now: Date, locale: string | undefined): string {
  const withYear = date.getFullYear() !== now.getFullYear()
  const key = `${locale ?? ''}|${withYear}`
  let format = monthFormats.get(key)
  if (!format) monthFormats.set(key, format = new Intl.DateTimeFormat(locale, withYear ? { month: 'long', year: 'numeric' } : { month: 'long' }))
  return format.format(date)
}
