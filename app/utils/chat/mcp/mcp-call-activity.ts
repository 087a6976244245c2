/**
 * What this tab's running MCP calls bring besides their result, by call id, for their tool cards: the last progress
 * report and the open question of the server (elicitation) with the function that answers it. In memory only: a
 * question belongs to the call that waits for it, and Stop or the call's end withdraws it (answered Cancel).
 */
import { shallowRef } from 'vue'
import type { McpCallHooks, McpCallProgress, McpElicitationAnswer, McpElicitationRequest } from '#shared/mcp/mcp-call-hooks'

/** A server's question waiting for the user on a call's card. */
export interface McpPendingQuestion {
  /** The server's name as Settings shows it (the card says who asks). */
  serverName: string
  request: McpElicitationRequest
  /**
   * Why the last answer was refused (a chat on the server checks it against the form), shown above the buttons: the
   * server's words, or why this tab could not deliver it (a key of the catalogs' `mcp.questions`).
   */
  problem?: string | McpQuestionProblem
}

/** This tab's own reason an answer did not arrive, shown in the user's language. */
export interface McpQuestionProblem {
  key: 'refused' | 'unreachable'
  /** The HTTP status of a refusal without a message. */
  status?: number
}

/** Calls whose last progress is kept; older ones are dropped. */
const MAX_CALLS = 50

const progressByCall = shallowRef<ReadonlyMap<string, McpCallProgress>>(new Map())
const questionsByCall = shallowRef<ReadonlyMap<string, McpPendingQuestion>>(new Map())
const answerers = new Map<string, (answer: McpElicitationAnswer) => void>()

function recordProgress(callId: string, progress: McpCallProgress) {
  const next = new Map(progressByCall.value)
  next.delete(callId)
  next.set(callId, progress)
  while (next.size > MAX_CALLS) next.delete(next.keys().next().value!)
  progressByCall.value = next
}

function setQuestion(callId: string, question: McpPendingQuestion | undefined) {
  const next = new Map(questionsByCall.value)
  if (question) next.set(callId, question)
  else next.delete(callId)
  questionsByCall.value = next
}

/**
 * Shows `question` on the call's card until it is answered (`onAnswer`, once) or `signal` aborts (the call ended,
 * the server withdrew it). A question shown again for the same call replaces the one before.
 */
export function offerMcpQuestion(callId: string, question: McpPendingQuestion, signal: AbortSignal, onAnswer: (answer: McpElicitationAnswer) => void): void {
  if (signal.aborted) return
  const finish = () => {
    signal.removeEventListener('abort', onAbort)
    if (answerers.get(callId) === answer) answerers.delete(callId)
    if (questionsByCall.value.get(callId) === question) setQuestion(callId, undefined)
  }
  const onAbort = () => finish()
  const answer = (value: McpElicitationAnswer) => {
    finish()
    onAnswer(value)
  }
  signal.addEventListener('abort', onAbort, { once: true })
  answerers.set(callId, answer)
  setQuestion(callId, question)
}

/** The hooks of one call of `serverName`'s tools: progress is recorded, questions wait on the card. */
export function mcpCallHooks(serverName: string): (callId: string) => McpCallHooks {
  return callId => ({
    onProgress: progress => recordProgress(callId, progress),
    onElicit: (request, signal) => new Promise<McpElicitationAnswer>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason)
      signal.addEventListener('abort', () => reject(signal.reason), { once: true })
      offerMcpQuestion(callId, { serverName, request }, signal, resolve)
    }),
  })
}

/** The last progress report of a call (reactive), if any. */
export function mcpCallProgress(callId: string): McpCallProgress | undefined {
  return progressByCall.value.get(callId)
}

/** The server's question a call waits on (reactive), if any. */
export function mcpCallQuestion(callId: string): McpPendingQuestion | undefined {
  return questionsByCall.value.get(callId)
}

/** Answers the call's question; false when it was already answered or withdrawn. */
export function answerMcpQuestion(callId: string, answer: McpElicitationAnswer): boolean {
  const answerer = answerers.get(callId)
  answerer?.(answer)
  return !!answerer
}

/** Whether a call has progress or a question to show (reactive): the card loads its panel only then. */
export function hasMcpCallActivity(callId: string): boolean {
  return progressByCall.value.has(callId) || questionsByCall.value.has(callId)
}
