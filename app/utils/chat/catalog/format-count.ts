let format: Intl.NumberFormat | undefined

/** A whole number in the browser's language (12,345 / 12.345 / 12 345): one formatter for every figure. */
export function formatCount(value: number): string {
  format ??= new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 })
  return format.format(value)
}
