import { JOB_SERVER_MESSAGES } from '#shared/errors/server-messages-jobs'
import { SERVER_MESSAGES, serverText } from '#shared/errors/server-messages'
import type { ServerMessageCode } from '#shared/errors/server-messages'
import type { CodedText } from '#shared/errors/coded-text'
import type { LoopEvent } from '#shared/loop/loop-event'
import type { LoopFailure } from '#shared/loop/loop-types'
import type { JobRecord } from '../store/job-store-types'

/**
 * The last event of a job that ended without one (its process restarted, or Stop reached a job nobody ran), so a
 * tab reading its stream records a clean end, keeping the partial reply it already holds, instead of waiting
 * forever: stopped → `finish` 'aborted'; interrupted or failed → `fail` with the record's message; done → `finish`.
 */
export function endingEventFor(job: Pick<JobRecord, 'status' | 'error'>, steps = 0): LoopEvent | undefined {
  switch (job.status) {
    case 'stopped': return { type: 'finish', finishReason: 'aborted', steps }
    case 'done': return { type: 'finish', finishReason: 'stop', steps }
    case 'interrupted':
    case 'failed':
      return { type: 'fail', steps, error: jobEndingFailure(job.error) }
    default: return undefined
  }
}

/**
 * The last event of a stream whose job record disappeared while it was read (Redis flushed, or retention dropped
 * the job): no event will ever follow, so the tab ends the reply as failed, keeping what it received.
 */
export function vanishedJobEvent(): LoopEvent {
  return { type: 'fail', steps: 0, error: serverFailure(serverText('server.job.vanished')) }
}

/**
 * How a job that ended with the record's `error` (English, as stored) fails in a tab: the sentence and "Press Retry.",
 * coded when it is one of the server's own endings (a restart, a lost key), else the stored words with the code of
 * the "Press Retry." around them.
 */
export function jobEndingFailure(error: string | undefined): LoopFailure {
  if (error === undefined) return serverFailure(serverText('server.job.lost'))
  const message = `${error} Press Retry.`
  const known = (Object.keys(JOB_SERVER_MESSAGES) as ServerMessageCode[]).find(code => SERVER_MESSAGES[code] === message)
  return serverFailure(known ? serverText(known) : serverText('server.job.failed', { reason: error }))
}

function serverFailure(text: CodedText): LoopFailure {
  return { kind: 'server', message: text.message, code: text.code, params: text.params, retryable: true }
}

/** Whether `event` is a run's last one. */
export function isRunEnd(event: LoopEvent): boolean {
  return event.type === 'finish' || event.type === 'fail'
}
