/**
 * Prints rows as an aligned plain-text table under a title, columns taken from the union of row keys
 * in first-seen order. Numbers are right-aligned and shown with at most 2 decimals.
 */
export function printTable(title: string, rows: Record<string, string | number>[]): void {
  const columns: string[] = []
  for (const row of rows) {
    for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key)
  }
  const format = (value: string | number | undefined): string => {
    if (value === undefined) return ''
    if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2)
    return value
  }
  const cells = rows.map(row => columns.map(column => format(row[column])))
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map(line => line[i]!.length)))
  const isNumeric = columns.map(column => rows.some(row => typeof row[column] === 'number'))
  const pad = (text: string, i: number) => (isNumeric[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!))
  const lines = [
    columns.map(pad).join('  '),
    widths.map(width => '-'.repeat(width)).join('  '),
    ...cells.map(line => line.map(pad).join('  ')),
  ]
  console.log(`\n${title}\n${lines.join('\n')}`)
}
