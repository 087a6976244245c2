import type { JobStore } from './job-store-types'
import { createInterimJobStore } from './interim-job-store'

let store: JobStore | undefined

/**
 * The JobStore background chats use. The one place to switch to `useJobStore()` (create-job-store.ts) once the
 * shared memory and Redis stores are merged; until then, jobs live in this process.
 */
export function chatJobStore(): JobStore {
  store ??= createInterimJobStore()
  return store
}
