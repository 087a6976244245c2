/**
 * Where a card's Allow once / Always allow / Deny goes. A call waits in one of three places:
 * - this tab's loop (`waitForToolApproval`): the answer resolves its wait;
 * - another tab's loop: the answer goes over a BroadcastChannel to the tab that waits;
 * - a chat run on the server: `POST /api/chats/:id/approvals`;
 * - nowhere (the page was reloaded while the call waited): the stored answerer (useChat) runs or denies the call
 *   and goes on with the chat from the stored history.
 * Client only: the waits live in this tab's memory.
 */
import type { ToolApprovalAnswer } from '#shared/loop/tool-approval'
import { busyThreadIds } from '~/db/thread-lock'
import { getServerJob } from '~/db/server-jobs'
import { getToolPolicies } from './tool-policies'

export interface ToolApprovalRequest {
  threadId: string
  callId: string
  toolName: string
  answer: ToolApprovalAnswer
}

/** Answers a stored call nobody waits for (after a reload); set by useChat. */
export type StoredApprovalAnswerer = (request: ToolApprovalRequest) => Promise<void>

const waiting = new Map<string, (answer: ToolApprovalAnswer) => void>()
let storedAnswerer: StoredApprovalAnswerer | undefined
let channel: BroadcastChannel | undefined

const CHANNEL_NAME = 'plugboard:tool-approvals'

function approvalChannel(): BroadcastChannel | undefined {
  if (channel || typeof BroadcastChannel === 'undefined') return channel
  channel = new BroadcastChannel(CHANNEL_NAME)
  channel.onmessage = (message: MessageEvent<{ callId?: unknown, answer?: ToolApprovalAnswer }>) => {
    const { callId, answer } = message.data ?? {}
    if (typeof callId === 'string' && answer) waiting.get(callId)?.(answer)
  }
  return channel
}

/** This tab's loop waits for the user's answer on a call's card; Stop (`signal`) rejects the wait. */
export function waitForToolApproval(callId: string, signal?: AbortSignal): Promise<ToolApprovalAnswer> {
  approvalChannel()
  return new Promise((resolve, reject) => {
    const done = () => {
      waiting.delete(callId)
      signal?.removeEventListener('abort', onAbort)
    }
    const onAbort = () => {
      done()
      reject(signal?.reason ?? new DOMException('The operation was aborted.', 'AbortError'))
    }
    if (signal?.aborted) return onAbort()
    signal?.addEventListener('abort', onAbort, { once: true })
    waiting.set(callId, (answer) => {
      done()
      resolve(answer)
    })
  })
}

/** Sets who answers stored calls nobody waits for; returns a function that unsets it. */
export function setStoredApprovalAnswerer(answerer: StoredApprovalAnswerer): () => void {
  storedAnswerer = answerer
  return () => {
    if (storedAnswerer === answerer) storedAnswerer = undefined
  }
}

/**
 * Hands the user's answer to whoever waits for it. "Always allow" also sets the tool's policy to 'auto'.
 * @throws Error with a message for the user when nobody can take the answer
 */
export async function answerToolApproval(request: ToolApprovalRequest): Promise<void> {
  if (request.answer.decision === 'always-allowed') getToolPolicies().setPolicy(request.toolName, 'auto')
  const local = waiting.get(request.callId)
  if (local) return local(request.answer)
  const job = await getServerJob(request.threadId)
  if (job) return postServerApproval(job.id, request)
  if ((await busyThreadIds()).has(request.threadId) && approvalChannel()) {
    approvalChannel()!.postMessage({ callId: request.callId, answer: request.answer })
    return
  }
  if (!storedAnswerer) throw new Error('This chat cannot go on right now. Reload the page and answer again.')
  await storedAnswerer(request)
}

async function postServerApproval(jobId: string, request: ToolApprovalRequest): Promise<void> {
  const response = await fetch(`/api/chats/${encodeURIComponent(jobId)}/approvals`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ callId: request.callId, ...request.answer }),
  })
  if (response.ok) return
  const body = await response.json().catch(() => ({})) as { message?: string }
  throw new Error(body.message ?? `The server did not take the answer (HTTP ${response.status}).`)
}
