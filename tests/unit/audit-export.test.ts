import { describe, expect, it } from 'vitest'
import { parse } from 'csv-parse/sync'
import { auditCsvHeader, auditCsvLine, buildAuditExport, csvCell } from '~/utils/audit/audit-export'
import type { AuditRecord } from '~/db/types'

/** The export read by an independent RFC 4180 reader (csv-parse): quoted fields, doubled quotes, CRLF between records. */
function parseCsv(text: string): string[][] {
  return parse(text, { bom: true }) as string[][]
}

const run = (fields: Partial<AuditRecord> = {}): AuditRecord => ({
  id: 'run-1', toolName: 'get_weather', toolCallId: 'call_1', threadId: 't1', threadTitle: 'Trip', argumentsAsked: '{"city":"Oslo, Norway"}',
  argumentsRun: '{"city":"Oslo, Norway"}', status: 'done', startedAt: Date.UTC(2026, 10, 22, 12), finishedAt: Date.UTC(2026, 10, 22, 12, 0, 1),
  durationMs: 1000, resultBytes: 42, truncated: false, ...fields,
})

describe('audit export: CSV cells', () => {
  it('quotes cells holding commas, quotes or line breaks, doubling the quotes', () => {
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"')
  })

  it('neutralises every cell a spreadsheet would run as a formula', () => {
    for (const attack of ['=HYPERLINK("http://evil.example","x")', '+cmd|\' /C calc\'!A0', '-2+3', '@SUM(A1:A2)', '\t=1+1', '\r=1+1', '  =1+1', '＝1+1']) {
      const cell = parseCsv(`${csvCell(attack)}\r\n`)[0]![0]!
      expect(cell.startsWith('\'')).toBe(true)
      expect(cell.slice(1)).toBe(attack)
    }
  })

  it('writes numbers and booleans as they are, and nothing for a missing value', () => {
    expect(csvCell(-5)).toBe('-5')
    expect(csvCell(0)).toBe('0')
    expect(csvCell(true)).toBe('true')
    expect(csvCell(undefined)).toBe('')
    expect(csvCell(Number.NaN)).toBe('')
  })
})

describe('audit export: files', () => {
  it('a CSV line reads back as the run it came from, hostile arguments included', () => {
    const hostile = run({ argumentsAsked: '=cmd|"/C calc"!A0,\r\n"x"', error: '-1 failed, "badly"', threadTitle: '@home' })
    const [header, line] = parseCsv(auditCsvHeader() + auditCsvLine(hostile))
    const cells = Object.fromEntries(header!.map((name, index) => [name, line![index]]))
    expect(cells.tool).toBe('get_weather')
    expect(cells.arguments_asked).toBe(`'${hostile.argumentsAsked}`)
    expect(cells.arguments_run).toBe(hostile.argumentsRun)
    expect(cells.error).toBe(`'${hostile.error}`)
    expect(cells.chat_title).toBe('\'@home')
    expect(cells.started_at).toBe('2026-11-22T12:00:00.000Z')
    expect(cells.duration_ms).toBe('1000')
    expect(cells.truncated).toBe('false')
    expect(cells.decision).toBe('')
    expect(line).toHaveLength(header!.length)
  })

  it('builds CSV and JSON one run at a time, in the order visited', async () => {
    const runs = [run({ id: 'b' }), run({ id: 'a', status: 'error', error: 'boom' })]
    const each = async (visit: (row: AuditRecord) => void) => runs.forEach(visit)
    const csv = parseCsv((await buildAuditExport('csv', each)).join(''))
    expect(csv.map(record => record[0])).toEqual(['id', 'b', 'a'])
    const json = JSON.parse((await buildAuditExport('json', each)).join(''))
    expect(json.map((entry: AuditRecord) => [entry.id, entry.status])).toEqual([['b', 'done'], ['a', 'error']])
    expect(json[0].argumentsAsked).toBe('{"city":"Oslo, Norway"}')
    expect(json[0].startedAtIso).toBe('2026-11-22T12:00:00.000Z')
  })

  it('an empty log exports a header-only CSV and an empty JSON array', async () => {
    const none = async () => {}
    expect((await buildAuditExport('csv', none)).join('')).toBe(auditCsvHeader())
    expect(JSON.parse((await buildAuditExport('json', none)).join(''))).toEqual([])
  })
})
