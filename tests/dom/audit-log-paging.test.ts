import { describe, expect, it, vi } from 'vitest'
import { effectScope } from 'vue'
import { useAuditLog } from '~/composables/useAuditLog'
import { getDatabase } from '~/db/database'
import type { AuditRecord } from '~/db/types'
import { useFreshDatabase } from './helpers/fresh-database'

// The audit page's paging: the page number shown is the number of the rows shown, so a run's Details pressed right
// after Next opens a run of the page that stays.

useFreshDatabase('audit-log-paging-test')

const START = new Date(2026, 10, 20).getTime()

async function seed(count: number) {
  const rows: AuditRecord[] = Array.from({ length: count }, (_, index) => ({
    id: `run-${String(index).padStart(2, '0')}`, toolName: 'calculate', toolCallId: `call_${index}`, argumentsAsked: '{}', status: 'done', startedAt: START + index * 60_000,
  }))
  await getDatabase().audit.bulkAdd(rows)
}

describe('paging the audit log', () => {
  it('changes the page number with the page\'s rows, not before them; Next pressed twice meanwhile asks once', async () => {
    await seed(60)
    const scope = effectScope()
    const log = scope.run(() => useAuditLog({}))!
    try {
      await vi.waitFor(() => expect(log.rows.value[0]?.id).toBe('run-59'))
      expect(log.pageCount.value).toBe(3)
      await vi.waitFor(() => expect(log.hasOlder.value).toBe(true))

      log.next()
      log.next()
      // asked for, not yet read: the first page and its number stay together
      expect(log.page.value).toBe(0)
      expect(log.rows.value[0]?.id).toBe('run-59')
      await vi.waitFor(() => expect(log.rows.value[0]?.id).toBe('run-34'))
      expect(log.page.value).toBe(1)

      log.next()
      await vi.waitFor(() => expect(log.page.value).toBe(2))
      expect(log.rows.value.map(row => row.id)).toEqual(['run-09', 'run-08', 'run-07', 'run-06', 'run-05', 'run-04', 'run-03', 'run-02', 'run-01', 'run-00'])
      expect(log.hasOlder.value).toBe(false)

      log.previous()
      expect(log.page.value).toBe(2)
      await vi.waitFor(() => expect(log.page.value).toBe(1))
      expect(log.rows.value[0]?.id).toBe('run-34')
    }
    finally {
      scope.stop()
    }
  })
})
