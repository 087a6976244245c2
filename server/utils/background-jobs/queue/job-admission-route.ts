import { createHash } from 'node:crypto'
import type { H3Event } from 'h3'
import { requestClientBudgetKey } from '../../security/client-address'
import { resolveJobLimits } from './job-admission'
import type { JobLimits } from './job-admission'
import { JobLimitError } from './job-limit-error'
import { codedError } from '../../http/user-error'

// The routes' side of job-admission.ts (Nitro only: it reads the request).

/**
 * The client of a request as a job records it: a hash of the address budgets count (behind trusted proxies the hop
 * they saw, never the client's own X-Forwarded-For entries; IPv6 by its /64).
 */
export function clientKeyOf(event: H3Event): string {
  const ip = requestClientBudgetKey(event)
  return createHash('sha256').update(ip).digest('hex').slice(0, 32)
}

/** The server's limits, from the runtime config (Nitro only). */
export function useJobLimits(event?: H3Event): JobLimits {
  const config = useRuntimeConfig(event)
  return resolveJobLimits({
    maxActivePerSession: config.jobMaxActivePerSession, maxActivePerIp: config.jobMaxActivePerIp,
    maxBytesPerSession: config.jobMaxBytesPerSession, maxBytesPerIp: config.jobMaxBytesPerIp,
  })
}

/** A JobLimitError as the route's answer (429 with its message, which the tab shows); anything else as it is. */
export function jobLimitResponse(error: unknown): unknown {
  return JobLimitError.isInstance(error) ? codedError(429, 'Too Many Requests', error.text) : error
}

