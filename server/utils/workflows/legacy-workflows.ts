import { parseJson } from '#shared/security/parse-json'
import type { Redis } from 'ioredis'
import { prefixStorage } from 'unstorage'
import type { Storage } from 'unstorage'
import type { WorkflowStore } from './workflow-store'
import type { Workflow } from './workflow-types'

/** Where workflows were kept before the database: unstorage under `.data` (`workflows:<session>:<id>`) and, with `NUXT_REDIS_URL`, one Redis hash per session. */
export interface LegacyWorkflowSources {
  storage?: Storage
  redis?: Redis
  /** @default 'plugboard:' */
  redisKeyPrefix?: string
}

function parseWorkflow(value: unknown): Workflow | undefined {
  let parsed = value
  if (typeof value === 'string') {
    try {
      parsed = parseJson(value)
    }
    catch {
      return undefined
    }
  }
  const workflow = parsed as Workflow | null
  return workflow && typeof workflow === 'object' && typeof workflow.id === 'string' && typeof workflow.sessionId === 'string' ? workflow : undefined
}

/**
 * Moves the workflows saved before the database into `store`, once: each is written first and deleted from its old
 * place after, so a crash in between leaves a copy that the next start writes again (a put of the same row). A
 * record that cannot be read is left where it is. Returns how many were moved.
 */
export async function moveLegacyWorkflows(store: WorkflowStore, sources: LegacyWorkflowSources): Promise<number> {
  let moved = 0
  if (sources.storage) {
    const workflows = prefixStorage(sources.storage, 'workflows')
    for (const key of await workflows.getKeys()) {
      const workflow = parseWorkflow(await workflows.getItem(key))
      if (!workflow) continue
      await store.put(workflow)
      await workflows.removeItem(key)
      moved++
    }
  }
  if (sources.redis) {
    const redis = sources.redis
    const pattern = `${sources.redisKeyPrefix ?? 'plugboard:'}workflows:*`
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 100)
      cursor = next
      for (const key of keys) {
        for (const [field, value] of Object.entries(await redis.hgetall(key))) {
          const workflow = parseWorkflow(value)
          if (!workflow) continue
          await store.put(workflow)
          await redis.hdel(key, field)
          moved++
        }
      }
    } while (cursor !== '0')
  }
  return moved
}
