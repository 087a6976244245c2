import { Dexie } from 'dexie'
import type { DBCore, DBCoreMutateRequest, DBCoreTable } from 'dexie'
import type { MessageRecord } from './types'

type IndexedText = { role?: MessageRecord['role'], content?: string } | null

/** Whether a change spec (`update`, `modify({...})`) may change what the index holds of a message. */
function touchesText(spec: unknown): boolean {
  return typeof spec !== 'object' || spec === null || 'content' in spec || 'role' in spec
}

/** Dexie's zone ("PSD"), public on Dexie.Promise but not in its types. */
const zoneApi = Dexie.Promise as unknown as { PSD: unknown, usePSD: <T>(zone: unknown, call: () => T) => T }

/**
 * Tells `queue` of every message written, from the rows as they are written, through a Dexie middleware on
 * `messages`. Table hooks did this before, but Dexie reads every row back before a hooked write (to tell a create
 * from an update), which doubled the cost of a sync pull writing thousands of messages. A write whose change spec
 * leaves text and role alone (marking the active path) queues nothing; a range delete reads its keys first.
 */
export function installSearchIndexRecorder(db: Dexie, queue: (id: string, message: IndexedText) => void): void {
  db.use({
    stack: 'dbcore',
    name: 'SearchIndexRecorder',
    create(down: DBCore): DBCore {
      return {
        ...down,
        table(name) {
          const table = down.table(name)
          if (name !== 'messages') return table
          return { ...table, mutate: request => recordWrite(table, request, queue) }
        },
      }
    },
  })
}

async function recordWrite(table: DBCoreTable, request: DBCoreMutateRequest, queue: (id: string, message: IndexedText) => void) {
  if (request.type === 'deleteRange') {
    const zone = zoneApi.PSD
    const found = await table.query({ trans: request.trans, query: { index: table.schema.primaryKey, range: request.range }, values: false })
    const result = await zoneApi.usePSD(zone, () => table.mutate(request))
    for (const key of found.result) if (typeof key === 'string') queue(key, null)
    return result
  }
  const result = await table.mutate(request)
  if (request.type === 'delete') {
    for (const key of request.keys) if (typeof key === 'string') queue(key, null)
    return result
  }
  const specs = request.type === 'put' ? request.updates?.changeSpecs : undefined
  const common = request.type === 'put' ? request.changeSpec : undefined
  request.values.forEach((value: Partial<MessageRecord> | undefined, index) => {
    if (!touchesText(specs?.[index] ?? common)) return
    const id = request.keys?.[index] ?? value?.id ?? result.results?.[index]
    if (typeof id === 'string' && value) queue(id, { role: value.role, content: value.content })
  })
  return result
}
