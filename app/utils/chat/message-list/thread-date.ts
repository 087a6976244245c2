const formats = new Map<string, Intl.DateTimeFormat>()

/**
 * A chat's date in the chat list ("Nov 22", in the language shown, or the browser's without `locale`). One formatter
 * per language for every row: `toLocaleDateString` with options builds a new one per call.
 */
export function formatThreadDate(timestamp: number, locale?: string): string {
  const key = locale ?? ''
  let format = formats.get(key)
  if (!format) formats.set(key, format = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' }))
  return format.format(timestamp)
}
