import { beforeAll, expect, it } from 'vitest'
import { createDatabaseWorkflowStore } from '~~/server/utils/workflows/database-workflow-store'
import type { WorkflowStore } from '~~/server/utils/workflows/workflow-store'
import type { Workflow } from '~~/server/utils/workflows/workflow-types'
import { describeOnDatabases } from './helpers/database-backends'

let clock = 1_000
let sessions = 0
function workflow(patch: Partial<Workflow> = {}): Workflow {
  clock += 1
  return { id: `wf-${clock}`, sessionId: 'session-a', name: 'Daily digest', systemPrompt: 'Be brief.', model: 'fake/tools', tools: [], firstMessage: 'Summarise today.', createdAt: clock, updatedAt: clock, ...patch }
}
const freshSession = () => `session-${++sessions}-${Math.random().toString(36).slice(2)}`

describeOnDatabases('the workflow store', (databases) => {
  let store: WorkflowStore
  let other: WorkflowStore
  beforeAll(() => {
    store = createDatabaseWorkflowStore(databases.first.db)
    other = createDatabaseWorkflowStore(databases.second.db)
  })

  it('keeps a session\'s workflows apart from another session\'s, newest first, and deletes them', async () => {
    const older = workflow()
    const newer = workflow({ name: 'Weekly report', parameters: { temperature: 0.2 } })
    const theirs = workflow({ sessionId: 'session-b' })
    for (const item of [older, newer, theirs]) await store.put(item)
    expect((await store.list('session-a')).map(item => item.name)).toEqual(['Weekly report', 'Daily digest'])
    expect(await store.get('session-a', theirs.id)).toBeUndefined()
    expect(await store.get('session-b', theirs.id)).toEqual(theirs)
    expect(await store.get('session-a', newer.id)).toEqual(newer)
    expect(await store.remove('session-a', theirs.id)).toBe(false)
    expect(await store.remove('session-a', older.id)).toBe(true)
    expect(await store.remove('session-a', older.id)).toBe(false)
    expect((await store.list('session-a')).map(item => item.id)).toEqual([newer.id])
    // Reads are copies: changing one does not change what is stored.
    const read = (await store.get('session-a', newer.id))!
    read.tools.push('sneaky')
    expect((await store.get('session-a', newer.id))!.tools).toEqual([])
  })

  it('saves a new version of a workflow, and never one over another session\'s workflow of the same id', async () => {
    const mine = workflow({ sessionId: freshSession() })
    await store.put(mine)
    await store.put({ ...mine, name: 'Renamed', updatedAt: mine.updatedAt + 5 })
    expect(await store.get(mine.sessionId, mine.id)).toMatchObject({ name: 'Renamed', createdAt: mine.createdAt, updatedAt: mine.updatedAt + 5 })
    const intruder = freshSession()
    await store.put({ ...mine, sessionId: intruder, name: 'Hijacked' })
    expect(await store.get(intruder, mine.id)).toBeUndefined()
    expect((await store.get(mine.sessionId, mine.id))!.name).toBe('Renamed')
  })

  it('creates up to the cap and no further, even when creates of one session race on two instances', async () => {
    const sessionId = freshSession()
    const attempts = Array.from({ length: 16 }, (_, n) => (n % 2 ? other : store).create(workflow({ sessionId }), 10))
    const results = await Promise.all(attempts)
    expect(results.filter(Boolean)).toHaveLength(10)
    expect(await store.list(sessionId)).toHaveLength(10)
    expect(await other.create(workflow({ sessionId }), 10)).toBe(false)
    // Another session's cap is its own.
    expect(await other.create(workflow({ sessionId: freshSession() }), 10)).toBe(true)
  })

  it('ends concurrent edits and deletes of one workflow on two instances in one of the written states', async () => {
    const base = workflow({ sessionId: freshSession() })
    expect(await store.create(base, 50)).toBe(true)
    const versions = Array.from({ length: 12 }, (_, n) => ({ ...base, name: `Version ${n}`, tools: [`tool_${n}`], updatedAt: base.updatedAt + n }))
    await Promise.all(versions.map((version, n) => (n % 2 ? other : store).put(version)))
    const stored = (await other.get(base.sessionId, base.id))!
    // Whole rows win: the name and the tools of one version, never a mix.
    const winner = versions.find(version => version.name === stored.name)!
    expect(stored).toEqual(winner)
    const removals = await Promise.all([store.remove(base.sessionId, base.id), other.remove(base.sessionId, base.id)])
    expect(removals.filter(Boolean)).toHaveLength(1)
    expect(await store.list(base.sessionId)).toEqual([])
  })
})
