import { isDemoModel } from '../../demo-model/demo-chat-model'
import type { ChatJobState } from './stream-handler'
import type { JobStore } from '../store/job-store-types'

/** Whether a queued chat needs the server's OpenRouter key: every model does but the offline demo. */
export async function jobNeedsServerKey(store: JobStore, jobId: string): Promise<boolean> {
  const state = (await store.getJob(jobId))?.state as ChatJobState | undefined
  return !isDemoModel(state?.modelName)
}
