/**
 * The questions MCP servers ask during a chat that runs on the server, in the tab that follows it: each question
 * event of the job's stream is shown on its call's card (the same form as in a tab's own chat), the answer goes to
 * `POST /api/chats/:id/questions`, and the question leaves the card when the job says it stopped waiting or the call
 * ended. An answer the server refuses puts the question back with the server's reason.
 */
import type { McpElicitationAnswer } from '#shared/mcp/mcp-call-hooks'
import { isMcpJobQuestionEvent } from '#shared/mcp/mcp-job-question'
import type { McpJobQuestionAnswerBody, McpJobQuestionEvent } from '#shared/mcp/mcp-job-question'
import { offerMcpQuestion } from '../mcp/mcp-call-activity'
import type { McpPendingQuestion } from '../mcp/mcp-call-activity'


export interface ServerChatQuestions {
  /** Applies a question event of the job's stream. */
  apply: (event: McpJobQuestionEvent) => void
  /** The call ended: its question, if any, is withdrawn. */
  callEnded: (callId: string) => void
  /** Shows the questions the job waited on before this tab followed it (a reopened chat). */
  loadPending: () => Promise<void>
  /** The tab stops following the job: every question leaves its card (the job keeps waiting for another tab). */
  close: () => void
}

/** The questions of job `jobId` for this tab. */
export function createServerChatQuestions(jobId: string): ServerChatQuestions {
  const open = new Map<string, AbortController>()

  function withdraw(callId: string) {
    open.get(callId)?.abort()
    open.delete(callId)
  }

  function show(callId: string, question: McpPendingQuestion) {
    withdraw(callId)
    const controller = new AbortController()
    open.set(callId, controller)
    offerMcpQuestion(callId, question, controller.signal, answer => void send(callId, question, answer, controller.signal))
  }

  async function send(callId: string, question: McpPendingQuestion, answer: McpElicitationAnswer, signal: AbortSignal) {
    const body: McpJobQuestionAnswerBody = { callId, action: answer.action, ...(answer.action === 'accept' && answer.content && { content: answer.content }) }
    let problem: McpPendingQuestion['problem']
    try {
      const response = await fetch(`/api/chats/${encodeURIComponent(jobId)}/questions`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
      })
      // 409: another tab answered first, or the question is gone; the job's stream says how it went on
      if (response.ok || response.status === 409) return
      const refusal = await response.json().catch(() => ({})) as { message?: string }
      problem = typeof refusal.message === 'string' ? refusal.message : { key: 'refused', status: response.status }
    }
    catch {
      problem = { key: 'unreachable' }
    }
    if (!signal.aborted) show(callId, { ...question, problem })
  }

  function apply(event: McpJobQuestionEvent) {
    if (event.type === 'mcp-question') show(event.callId, { serverName: event.serverName, request: event.request })
    else withdraw(event.callId)
  }

  return {
    apply,
    callEnded: withdraw,
    async loadPending() {
      const response = await fetch(`/api/chats/${encodeURIComponent(jobId)}/questions`).catch(() => undefined)
      const body = await response?.json().catch(() => undefined) as { questions?: unknown[] } | undefined
      for (const event of Array.isArray(body?.questions) ? body.questions : []) {
        if (isMcpJobQuestionEvent(event) && event.type === 'mcp-question' && !open.has(event.callId)) apply(event)
      }
    },
    close() {
      for (const callId of [...open.keys()]) withdraw(callId)
    },
  }
}
