import { JobLimitError } from './job-limit-error'
import type { JobStore } from '../store/job-store-types'
import { serverText } from '#shared/errors/server-messages'

/**
 * Caps on what one browser session, and one client IP (every session it opens), may keep on the server as
 * unfinished background chats: how many, and how many bytes their state holds (each chat's messages sit in the
 * runner's memory and in the store until it ends). A parked chat holds no runner slot but still counts here.
 */
export interface JobLimits {
  /** @default 10 (`NUXT_JOB_MAX_ACTIVE_PER_SESSION`) */
  maxActivePerSession: number
  /** @default 30 (`NUXT_JOB_MAX_ACTIVE_PER_IP`) */
  maxActivePerIp: number
  /** @default 16 MiB (`NUXT_JOB_MAX_BYTES_PER_SESSION`) */
  maxBytesPerSession: number
  /** @default 48 MiB (`NUXT_JOB_MAX_BYTES_PER_IP`) */
  maxBytesPerIp: number
}

export const DEFAULT_JOB_LIMITS: JobLimits = {
  maxActivePerSession: 10,
  maxActivePerIp: 30,
  maxBytesPerSession: 16 * 1024 * 1024,
  maxBytesPerIp: 48 * 1024 * 1024,
}

/** The limits from the runtime config's values; unset, 0 or nonsense gives the default. */
export function resolveJobLimits(configured: Partial<Record<keyof JobLimits, unknown>> = {}): JobLimits {
  const pick = (name: keyof JobLimits) => {
    const value = Math.floor(Number(configured[name]))
    return Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_JOB_LIMITS[name]
  }
  return { maxActivePerSession: pick('maxActivePerSession'), maxActivePerIp: pick('maxActivePerIp'), maxBytesPerSession: pick('maxBytesPerSession'), maxBytesPerIp: pick('maxBytesPerIp') }
}

/** Who asks for a new job: its session, its client (hashed IP) and the bytes its state will hold. */
export interface JobRequester {
  sessionId: string
  clientKey?: string
  bytes: number
}

/**
 * Refuses (JobLimitError, the route's 429) a job that would take its session or client past a cap. Counted from the
 * store, so every instance sees the same totals; two requests in the same instant may both pass, one chat over.
 */
export async function admitJob(store: JobStore, requester: JobRequester, limits: JobLimits): Promise<void> {
  const session = await store.activeUsage({ sessionId: requester.sessionId })
  if (session.jobs >= limits.maxActivePerSession) {
    throw new JobLimitError({ scope: 'session', limit: 'jobs', text: serverText('server.job.browserJobs', { count: session.jobs }) })
  }
  if (session.bytes + requester.bytes > limits.maxBytesPerSession) {
    throw new JobLimitError({ scope: 'session', limit: 'bytes', text: serverText('server.job.browserBytes', { held: megabytes(session.bytes), max: megabytes(limits.maxBytesPerSession) }) })
  }
  if (!requester.clientKey) return
  const client = await store.activeUsage({ clientKey: requester.clientKey })
  if (client.jobs >= limits.maxActivePerIp) {
    throw new JobLimitError({ scope: 'ip', limit: 'jobs', text: serverText('server.job.networkJobs', { count: client.jobs }) })
  }
  if (client.bytes + requester.bytes > limits.maxBytesPerIp) {
    throw new JobLimitError({ scope: 'ip', limit: 'bytes', text: serverText('server.job.networkBytes', { held: megabytes(client.bytes), max: megabytes(limits.maxBytesPerIp) }) })
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
