import { describe, expect, it } from 'vitest'
import { clearAudit, countAudit, eachAuditRecord, listAuditPage, listAuditToolNames, pruneAudit } from '~/db/audit'
import { getDatabase } from '~/db/database'
import type { AuditRecord, AuditStatus } from '~/db/types'
import { toAuditFilter } from '~/utils/audit/audit-filter-form'
import { auditCutoff, parseAuditRetention, readAuditRetention } from '~/utils/audit/audit-retention'
import { useFreshDatabase } from './helpers/fresh-database'

useFreshDatabase('audit-queries-test')

const HOUR = 60 * 60 * 1000
const START = new Date(2026, 10, 20).getTime() // 20 Nov 2026, local midnight

/** 60 runs, one an hour from 20 Nov 00:00 (local): calculate / get_weather alternating, every third an error. */
async function seed() {
  const rows: AuditRecord[] = Array.from({ length: 60 }, (_, index) => ({
    id: `run-${String(index).padStart(2, '0')}`, toolName: index % 2 ? 'get_weather' : 'calculate', toolCallId: `call_${index}`,
    argumentsAsked: '{}', status: (index % 3 === 0 ? 'error' : 'done') as AuditStatus, startedAt: START + index * HOUR,
  }))
  await getDatabase().audit.bulkAdd(rows)
}

describe('audit log queries', () => {
  it('lists one page at a time, newest first, each page going on after the last run of the one before', async () => {
    await seed()
    const first = await listAuditPage({}, { limit: 25 })
    expect(first).toHaveLength(25)
    expect(first[0]!.id).toBe('run-59')
    expect(first.map(row => row.startedAt)).toEqual([...first.map(row => row.startedAt)].sort((a, b) => b - a))
    const second = await listAuditPage({}, { after: first.at(-1), limit: 25 })
    const third = await listAuditPage({}, { after: second.at(-1), limit: 25 })
    expect(second[0]!.id).toBe('run-34')
    expect(third.map(row => row.id)).toEqual(['run-09', 'run-08', 'run-07', 'run-06', 'run-05', 'run-04', 'run-03', 'run-02', 'run-01', 'run-00'])
    expect(await countAudit({})).toBe(60)
  })

  it('runs logged in the same millisecond are neither skipped nor shown twice across pages', async () => {
    await getDatabase().audit.bulkAdd(Array.from({ length: 7 }, (_, index) => ({
      id: `same-${index}`, toolName: 'calculate', toolCallId: `c${index}`, argumentsAsked: '{}', status: 'done' as const, startedAt: START,
    })))
    const seen: string[] = []
    let after: AuditRecord | undefined
    for (let round = 0; round < 5; round++) {
      const page = await listAuditPage({ toolName: 'calculate' }, { after, limit: 3 })
      seen.push(...page.map(row => row.id))
      after = page.at(-1)
      if (!after) break
    }
    expect(seen).toEqual(['same-6', 'same-5', 'same-4', 'same-3', 'same-2', 'same-1', 'same-0'])
  })

  it('filters by tool, status and a range of whole days, combined', async () => {
    await seed()
    expect(await countAudit({ toolName: 'calculate' })).toBe(30)
    expect(await countAudit({ status: 'error' })).toBe(20)
    expect(await countAudit({ toolName: 'calculate', status: 'error' })).toBe(10)
    // 21 Nov only: hours 24..47
    const day = toAuditFilter({ toolName: '', status: '', fromDate: '2026-11-21', toDate: '2026-11-21' })
    expect(await countAudit(day)).toBe(24)
    const page = await listAuditPage({ ...day, toolName: 'get_weather', status: 'done' }, { limit: 100 })
    expect(page.every(row => row.toolName === 'get_weather' && row.status === 'done' && row.startedAt >= START + 24 * HOUR && row.startedAt < START + 48 * HOUR)).toBe(true)
    expect(page.map(row => row.id)[0]).toBe('run-47')
    expect(await countAudit({ toolName: 'no_such_tool' })).toBe(0)
  })

  it('an open-ended date range keeps everything after From, or before To', async () => {
    await seed()
    expect(await countAudit(toAuditFilter({ toolName: '', status: '', fromDate: '2026-11-22', toDate: '' }))).toBe(12)
    expect(await countAudit(toAuditFilter({ toolName: '', status: '', fromDate: '', toDate: '2026-11-20' }))).toBe(24)
    // not a date: ignored rather than matching nothing
    expect(toAuditFilter({ toolName: '', status: '', fromDate: 'yesterday', toDate: '' })).toEqual({})
  })

  it('visits every run of a filter for an export, newest first, and lists the tools that ran', async () => {
    await seed()
    const seen: string[] = []
    await eachAuditRecord({ status: 'error' }, row => seen.push(row.id))
    expect(seen).toHaveLength(20)
    expect(seen[0]).toBe('run-57')
    // read in batches: every run once, in order, whatever the batch size
    const batched: string[] = []
    await eachAuditRecord({}, row => batched.push(row.id), 7)
    expect(batched).toEqual(Array.from({ length: 60 }, (_, index) => `run-${String(59 - index).padStart(2, '0')}`))
    expect(await listAuditToolNames()).toEqual(['calculate', 'get_weather'])
  })

  it('prunes runs older than a cutoff and clears the whole log', async () => {
    await seed()
    expect(await pruneAudit(START + 10 * HOUR)).toBe(10)
    expect(await countAudit({})).toBe(50)
    await clearAudit()
    expect(await countAudit({})).toBe(0)
  })
})

describe('audit retention', () => {
  it('reads 7 / 30 / 90 days or forever, and anything else as the default', () => {
    const storage = (value: string | null) => ({ getItem: () => value })
    expect(readAuditRetention(storage('7'))).toBe('7')
    expect(readAuditRetention(storage('forever'))).toBe('forever')
    expect(readAuditRetention(storage('"30"'))).toBe('90')
    expect(readAuditRetention(storage(null))).toBe('90')
    expect(readAuditRetention({ getItem: () => { throw new Error('blocked') } })).toBe('90')
    expect(parseAuditRetention('__proto__')).toBe('90')
  })

  it('turns a retention into the oldest time kept', () => {
    const now = Date.UTC(2026, 10, 22)
    expect(auditCutoff('7', now)).toBe(now - 7 * 24 * HOUR)
    expect(auditCutoff('forever', now)).toBeUndefined()
  })
})
