import { parseJson } from '#shared/security/parse-json'
import type { Redis } from 'ioredis'
import { getRedisClient } from '../../redis/redis-client'
import { abortRunningJob, answerBrowserCall } from '../runner/running-jobs'
import type { BrowserToolAnswer } from '../runner/running-jobs'
import type { ToolApprovalAnswer } from '#shared/loop/tool-approval'
import { answerJobApproval } from '../runner/pending-approvals'
import { answerJobQuestion } from '../runner/job-questions'
import type { McpJobQuestionAnswerBody } from '#shared/mcp/mcp-job-question'
import { isRecord } from '#shared/types/is-record'

/**
 * What a request on one instance asks of a job that may run on another: Stop, or a tab's answer to the browser-only
 * tool the job waits for. Only the instance running the job holds its AbortController and its waiting calls.
 */
export type JobControlMessage =
  | { type: 'stop', jobId: string }
  | { type: 'browser-answer', jobId: string, callId: string, answer: BrowserToolAnswer }
  /** The user's Allow once / Always allow / Deny on a call waiting for approval (pending-approvals.ts). */
  | { type: 'approval-answer', jobId: string, callId: string, answer: ToolApprovalAnswer }
  /** The user's answer to an MCP server's question during a call (job-questions.ts). */
  | { type: 'question-answer', jobId: string, answer: McpJobQuestionAnswerBody }

/** Delivers control messages to whichever instance runs the job: this process, or any on the same Redis. */
export interface JobControl {
  /** True when another instance may run the job (Redis): a local miss does not mean nobody runs it. */
  readonly shared: boolean
  /** Hands `message` to the job's runner, here or elsewhere. Resolves once sent, not once applied. */
  send: (message: JobControlMessage) => Promise<void>
  /**
   * Reserves `key` once across instances (the first answer to a call wins); false when it was already taken.
   * Reservations lapse after a day.
   */
  claimOnce: (key: string) => Promise<boolean>
  close: () => Promise<void>
}

/** Applies a control message to a job running in this process; false when it does not run here. */
export function applyJobControl(message: JobControlMessage): boolean {
  if (message.type === 'stop') return abortRunningJob(message.jobId)
  if (message.type === 'approval-answer') return answerJobApproval(message.jobId, message.callId, message.answer).ok
  if (message.type === 'question-answer') return answerJobQuestion(message.jobId, message.answer).ok
  return answerBrowserCall(message.jobId, message.callId, message.answer)
}

/** One process: messages are applied directly. */
export function createLocalJobControl(): JobControl {
  const claimed = new Set<string>()
  return {
    shared: false,
    async send(message) {
      applyJobControl(message)
    },
    async claimOnce(key) {
      if (claimed.has(key)) return false
      claimed.add(key)
      // Bounded like the Redis reservations: an answered call never needs its key again after the job ends.
      setTimeout(() => claimed.delete(key), CLAIM_TTL_MS).unref?.()
      return true
    },
    async close() {
      claimed.clear()
    },
  }
}

const CLAIM_TTL_MS = 24 * 60 * 60 * 1000

export interface RedisJobControlOptions {
  /** The instance's shared client (publishing); the subscription uses a duplicate, as a subscribed connection can run nothing else. */
  redis: Redis
  /** @default 'plugboard:' */
  keyPrefix?: string
}

/**
 * Control over Redis pub/sub: every instance subscribes to one channel and applies the messages for jobs it runs.
 * A message for a job nobody runs right now is dropped; Stop also leaves `stopRequested` on the record, which a
 * runner that starts or takes the job over later reads.
 */
export function createRedisJobControl(options: RedisJobControlOptions): JobControl {
  const prefix = options.keyPrefix ?? 'plugboard:'
  const channel = `${prefix}job-control`
  const subscriber = options.redis.duplicate()
  // Errors of this connection are the shared client's too, which reports them; ioredis resubscribes on reconnect.
  subscriber.on('error', () => {})
  subscriber.on('message', (_channel: string, text: string) => {
    const message = parseControlMessage(text)
    if (message) applyJobControl(message)
  })
  const subscribed = subscriber.subscribe(channel).catch((error: unknown) => {
    console.error('[job-control]', new Error('Could not subscribe to job control messages; Stop from other instances will not reach jobs here.', { cause: error }))
  })
  return {
    shared: true,
    async send(message) {
      applyJobControl(message)
      await options.redis.publish(channel, JSON.stringify(message))
    },
    async claimOnce(key) {
      return (await options.redis.set(`${prefix}claim:${key}`, '1', 'PX', CLAIM_TTL_MS, 'NX')) === 'OK'
    },
    async close() {
      await subscribed
      subscriber.disconnect()
    },
  }
}

/** A message from the channel, or undefined for anything that is not one (another program on the same Redis). */
export function parseControlMessage(text: string): JobControlMessage | undefined {
  let value: unknown
  try {
    value = parseJson(text)
  }
  catch {
    return undefined
  }
  if (!value || typeof value !== 'object') return undefined
  const message = value as Record<string, unknown>
  if (typeof message.jobId !== 'string') return undefined
  if (message.type === 'stop') return { type: 'stop', jobId: message.jobId }
  if (message.type === 'approval-answer') return parseApprovalMessage(message.jobId, message)
  if (message.type === 'question-answer') return parseQuestionMessage(message.jobId, message)
  const answer = message.answer as Record<string, unknown> | undefined
  if (message.type !== 'browser-answer' || typeof message.callId !== 'string' || !answer) return undefined
  if (answer.ok === true && typeof answer.content === 'string') return { type: 'browser-answer', jobId: message.jobId, callId: message.callId, answer: { ok: true, content: answer.content } }
  if (answer.ok === false && typeof answer.message === 'string') return { type: 'browser-answer', jobId: message.jobId, callId: message.callId, answer: { ok: false, message: answer.message, ...(answer.cancelled === true ? { cancelled: true } : {}) } }
  return undefined
}

const APPROVAL_DECISIONS: readonly string[] = ['allowed-once', 'always-allowed', 'denied']

function parseApprovalMessage(jobId: string, message: Record<string, unknown>): JobControlMessage | undefined {
  const answer = message.answer as Record<string, unknown> | undefined
  if (typeof message.callId !== 'string' || !answer || typeof answer.decision !== 'string' || !APPROVAL_DECISIONS.includes(answer.decision)) return undefined
  if (answer.arguments !== undefined && typeof answer.arguments !== 'string') return undefined
  const decision = answer.decision as ToolApprovalAnswer['decision']
  return { type: 'approval-answer', jobId, callId: message.callId, answer: { decision, ...(typeof answer.arguments === 'string' && { arguments: answer.arguments }) } }
}

const QUESTION_ACTIONS: readonly unknown[] = ['accept', 'decline', 'cancel']

function parseQuestionMessage(jobId: string, message: Record<string, unknown>): JobControlMessage | undefined {
  const answer = message.answer
  if (!isRecord(answer) || typeof answer.callId !== 'string' || !QUESTION_ACTIONS.includes(answer.action)) return undefined
  if (answer.content !== undefined && !isRecord(answer.content)) return undefined
  const action = answer.action as McpJobQuestionAnswerBody['action']
  return { type: 'question-answer', jobId, answer: { callId: answer.callId, action, ...(isRecord(answer.content) && { content: answer.content }) } }
}

let shared: JobControl | undefined

/** The server's JobControl: on Redis with `NUXT_REDIS_URL`, else in this process (Nitro only). */
export function useJobControl(): JobControl {
  if (!shared) {
    const redisUrl = String(useRuntimeConfig().redisUrl ?? '').trim()
    shared = redisUrl ? createRedisJobControl({ redis: getRedisClient(redisUrl) }) : createLocalJobControl()
  }
  return shared
}

/** Closes the server's JobControl (Nitro's 'close' hook). */
export async function closeJobControl(): Promise<void> {
  const closing = shared
  shared = undefined
  await closing?.close()
}
