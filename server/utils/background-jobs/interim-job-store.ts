import type { JobEvent, JobRecord, JobStore } from './job-store-types'

/**
 * A JobStore in this process's memory, standing in until the shared stores (memory-job-store.ts, the Redis one and
 * `useJobStore()`) land; chat-job-store.ts is the one place that picks it. Subscribers are woken per append, so an
 * event reaches every open stream of its job as soon as it is stored, in order, once.
 */
export function createInterimJobStore(): JobStore {
  const jobs = new Map<string, JobRecord>()
  const events = new Map<string, JobEvent[]>()
  const listeners = new Map<string, Set<() => void>>()

  const wake = (jobId: string) => {
    for (const listener of listeners.get(jobId) ?? []) listener()
  }

  return {
    async putJob(job) {
      jobs.set(job.id, { ...job })
    },
    async getJob(jobId) {
      const job = jobs.get(jobId)
      return job && { ...job }
    },
    async updateJob(jobId, patch) {
      const job = jobs.get(jobId)
      if (!job) return undefined
      const next = { ...job, ...patch, updatedAt: Date.now() }
      jobs.set(jobId, next)
      return { ...next }
    },
    async listJobs(sessionId) {
      return [...jobs.values()].filter(job => job.sessionId === sessionId).sort((a, b) => b.createdAt - a.createdAt)
    },
    async appendEvent(jobId, event) {
      const list = events.get(jobId) ?? []
      events.set(jobId, list)
      const id = list.length + 1
      list.push({ id, jobId, event })
      wake(jobId)
      return id
    },
    async readEvents<T>(jobId: string, afterId: number, limit = 1000) {
      return (events.get(jobId) ?? []).filter(item => item.id > afterId).slice(0, limit) as JobEvent<T>[]
    },
    async subscribe<T>(jobId: string, afterId: number, onEvent: (event: JobEvent<T>) => void, signal: AbortSignal) {
      let last = afterId
      // Ids are positions in the list, so "what is new" is a slice from the last id delivered.
      const deliver = () => {
        const list = events.get(jobId) ?? []
        while (last < list.length && !signal.aborted) onEvent(list[last++] as JobEvent<T>)
      }
      const set = listeners.get(jobId) ?? new Set()
      listeners.set(jobId, set)
      set.add(deliver)
      signal.addEventListener('abort', () => set.delete(deliver), { once: true })
      deliver()
    },
    async close() {
      listeners.clear()
    },
  }
}
