const formats = new Map<string, Intl.NumberFormat>()

/**
 * A whole number in the language shown (12,345 / 12.345 / 12 345), or the browser's without `locale`: one
 * formatter per language for every figure.
 */
export function formatCount(value: number, locale?: string): string {
  const key = locale ?? ''
  let format = formats.get(key)
  if (!format) formats.set(key, format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }))
  return format.format(value)
}
