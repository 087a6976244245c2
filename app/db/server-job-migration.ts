import type { Transaction } from 'dexie'
import type { ServerJobRecord } from './types'

/** Version 10's upgrade: each thread's `serverJob` field becomes a row of `serverJobs`. */
export async function moveServerJobsOffThreads(tx: Transaction): Promise<void> {
  const jobs: ServerJobRecord[] = []
  await tx.table('threads').filter(thread => Boolean(thread.serverJob)).modify((thread: { id: string, serverJob?: Omit<ServerJobRecord, 'threadId'> }) => {
    jobs.push({ ...thread.serverJob!, threadId: thread.id })
    delete thread.serverJob
  })
  await tx.table('serverJobs').bulkPut(jobs)
}
