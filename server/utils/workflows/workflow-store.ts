import { parseJson } from '#shared/security/parse-json'
import type { Redis } from 'ioredis'
import { prefixStorage } from 'unstorage'
import type { Storage } from 'unstorage'
import type { Workflow } from './workflow-types'

/**
 * Where workflows live: beside the jobs (unstorage in one process, Redis with `NUXT_REDIS_URL`), per session.
 * Reads copy, so a caller never changes a stored workflow by accident.
 */
export interface WorkflowStore {
  /** A session's workflows, newest first. */
  list: (sessionId: string) => Promise<Workflow[]>
  get: (sessionId: string, id: string) => Promise<Workflow | undefined>
  put: (workflow: Workflow) => Promise<void>
  /** False when there was no such workflow. */
  remove: (sessionId: string, id: string) => Promise<boolean>
}

function parseWorkflow(value: unknown): Workflow | undefined {
  const parsed = typeof value === 'string' ? safeParse(value) : value
  return parsed && typeof parsed === 'object' && typeof (parsed as Workflow).id === 'string' ? structuredClone(parsed as Workflow) : undefined
}

function safeParse(text: string): unknown {
  try {
    return parseJson(text)
  }
  catch {
    return undefined
  }
}

const newestFirst = (a: Workflow, b: Workflow) => b.createdAt - a.createdAt

/** Workflows under unstorage (`workflows:<session>:<id>`): the fs driver under `.data`, or memory in tests. */
export function createStorageWorkflowStore(storage: Storage): WorkflowStore {
  const workflows = prefixStorage(storage, 'workflows')
  // Session ids are the server's own (UUIDs), but keep any ':' out of the key structure anyway.
  const key = (sessionId: string, id: string) => `${encodeURIComponent(sessionId)}:${encodeURIComponent(id)}`
  return {
    async list(sessionId) {
      const keys = await workflows.getKeys(encodeURIComponent(sessionId))
      const found = await Promise.all(keys.map(async name => parseWorkflow(await workflows.getItem(name))))
      return found.filter((workflow): workflow is Workflow => workflow?.sessionId === sessionId).sort(newestFirst)
    },
    async get(sessionId, id) {
      const workflow = parseWorkflow(await workflows.getItem(key(sessionId, id)))
      return workflow?.sessionId === sessionId ? workflow : undefined
    },
    async put(workflow) {
      await workflows.setItem(key(workflow.sessionId, workflow.id), structuredClone(workflow))
    },
    async remove(sessionId, id) {
      if (!(await workflows.hasItem(key(sessionId, id)))) return false
      await workflows.removeItem(key(sessionId, id))
      return true
    },
  }
}

/** Workflows on Redis: one hash per session (`workflows:<session>`, field = id, value = JSON). */
export function createRedisWorkflowStore(redis: Redis, keyPrefix = 'plugboard:'): WorkflowStore {
  const hash = (sessionId: string) => `${keyPrefix}workflows:${sessionId}`
  return {
    async list(sessionId) {
      const values = Object.values(await redis.hgetall(hash(sessionId)))
      return values.map(parseWorkflow).filter((workflow): workflow is Workflow => workflow?.sessionId === sessionId).sort(newestFirst)
    },
    async get(sessionId, id) {
      const workflow = parseWorkflow(await redis.hget(hash(sessionId), id))
      return workflow?.sessionId === sessionId ? workflow : undefined
    },
    async put(workflow) {
      await redis.hset(hash(workflow.sessionId), workflow.id, JSON.stringify(workflow))
    },
    async remove(sessionId, id) {
      return (await redis.hdel(hash(sessionId), id)) > 0
    },
  }
}
