/**
 * Questions MCP servers ask during a chat that runs on the server (`elicitation/create`), answered by a tab of the
 * chat's session like an approval: the job parks (its slot given back, its record 'paused'), the question goes to
 * the tabs on the job's event stream, `POST /api/chats/:id/questions` hands the answer back (checked against the
 * form the server asked for), and nobody answering within `NUXT_JOB_WAIT_TIMEOUT_MS` answers Cancel. Only the
 * process running the job holds the wait (like an approval's): the answer route hands it over here.
 *
 * A tool handler learns which job and call it runs for from the scope the job runs it in (AsyncLocalStorage): the
 * operator's MCP connections are shared by every job, and the protocol does not say which call asks.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { McpCallHooks, McpCallProgress, McpElicitationAnswer, McpElicitationRequest } from '#shared/mcp/mcp-call-hooks'
import { checkElicitationContent } from '#shared/mcp/mcp-elicitation-answer'
import type { McpJobQuestionAnswerBody, McpJobQuestionEvent } from '#shared/mcp/mcp-job-question'
import type { ExecutableTool, ToolExecutionContext } from '#shared/tools/tool-types'
import { onAbort } from '#shared/stream/on-abort'
import type { CodedText } from '#shared/errors/coded-text'
import { serverText } from '#shared/errors/server-messages'

/** What a handler running inside a job may do besides its work: ask the user, report progress. */
interface JobCallScope {
  ask: (serverName: string, request: McpElicitationRequest, signal: AbortSignal) => Promise<McpElicitationAnswer>
  status: (text: string) => void
}

const scope = new AsyncLocalStorage<JobCallScope>()

interface WaitingQuestion {
  serverName: string
  request: McpElicitationRequest
  resolve: (answer: McpElicitationAnswer) => void
}

/** The questions of the jobs this process runs, by job and call id. */
const waiting = new Map<string, Map<string, WaitingQuestion>>()

/** Server tools whose handler may ask the user (the operator's MCP tools), by registry name. */
const askingTools = new Set<string>()

/** Marks a server tool as one that may ask the user; returns the function that unmarks it. */
export function markToolMayAsk(name: string): () => void {
  askingTools.add(name)
  return () => askingTools.delete(name)
}

function progressText(progress: McpCallProgress): string {
  const count = progress.total !== undefined ? `${progress.progress} of ${progress.total}` : String(progress.progress)
  return progress.message ? `${progress.message} (${count})` : count
}

/**
 * The hooks an MCP tool call of `serverName` gets when it runs inside a job: progress on the card's status line,
 * questions to the job's tabs. Outside a job (`POST /api/tools/:name/execute`) none: the server is told that no
 * call can ask.
 */
export function jobCallHooks(serverName: string): McpCallHooks | undefined {
  const call = scope.getStore()
  if (!call) return undefined
  return {
    onProgress: progress => call.status(progressText(progress)),
    onElicit: (request, signal) => call.ask(serverName, request, signal),
  }
}

export interface JobQuestionsOptions {
  jobId: string
  /** Told when the job starts and stops waiting for the user: its record says 'paused' / 'running', its slot is parked. */
  onWaiting: (waiting: boolean) => Promise<void> | void
  /** How long a question waits before it is answered Cancel (`NUXT_JOB_WAIT_TIMEOUT_MS`). */
  waitTimeoutMs: number
  /** Puts a question event on the job's stream, for the tabs. */
  announce: (event: McpJobQuestionEvent) => Promise<unknown>
}

/**
 * A job's server tools, able to ask: each handler runs in the job's scope, and a tool that may ask gets the wait
 * limit on top of its own timeout, so a person taking their time is not cut off by the tool's clock.
 */
export function toolsThatMayAsk(tools: ExecutableTool[], options: JobQuestionsOptions): ExecutableTool[] {
  return tools.map((tool) => {
    const name = tool.definition.function.name
    if (!askingTools.has(name)) return tool
    return {
      ...tool,
      timeoutMs: (tool.timeoutMs ?? 10_000) + options.waitTimeoutMs,
      handler: (args, context: ToolExecutionContext) => scope.run({
        ask: (serverName, request, signal) => askInJob(options, context.callId, serverName, request, signal),
        status: context.status,
      }, () => tool.handler(args, context)),
    }
  })
}

async function askInJob(options: JobQuestionsOptions, callId: string, serverName: string, request: McpElicitationRequest, signal: AbortSignal): Promise<McpElicitationAnswer> {
  const { jobId } = options
  const calls = waiting.get(jobId) ?? new Map<string, WaitingQuestion>()
  if (calls.has(callId)) return { action: 'cancel' }
  waiting.set(jobId, calls)
  let answer!: (value: McpElicitationAnswer) => void
  const answered = new Promise<McpElicitationAnswer>(resolve => (answer = resolve))
  calls.set(callId, { serverName, request, resolve: answer })
  const timer = setTimeout(() => answer({ action: 'cancel' }), options.waitTimeoutMs)
  const stopListening = signal.aborted ? (answer({ action: 'cancel' }), () => {}) : onAbort(signal, () => answer({ action: 'cancel' }))
  let parked = false
  try {
    await options.announce({ type: 'mcp-question', callId, serverName, request })
    await options.onWaiting(true)
    parked = true
    return await answered
  }
  finally {
    clearTimeout(timer)
    stopListening()
    calls.delete(callId)
    if (calls.size === 0 && waiting.get(jobId) === calls) waiting.delete(jobId)
    await options.announce({ type: 'mcp-question-end', callId }).catch(() => {})
    if (parked) await options.onWaiting(false)
  }
}

export type AnswerJobQuestionResult = { ok: true } | { ok: false, reason: 'not-waiting' } | { ok: false, reason: 'invalid', message: string, text: CodedText }

/**
 * Hands a tab's answer to the waiting question. An Accept whose content does not fit the form is refused (the
 * question keeps waiting); an unknown or already answered question is 'not-waiting'.
 */
export function answerJobQuestion(jobId: string, answer: McpJobQuestionAnswerBody): AnswerJobQuestionResult {
  const question = waiting.get(jobId)?.get(answer.callId)
  if (!question) return { ok: false, reason: 'not-waiting' }
  if (answer.action !== 'accept') {
    question.resolve({ action: answer.action })
    return { ok: true }
  }
  if (question.request.mode === 'url') {
    question.resolve({ action: 'accept' })
    return { ok: true }
  }
  const checked = checkElicitationContent(question.request.form, answer.content ?? {})
  if (!checked.ok) {
    const text = serverText('server.job.answerMismatch', { reason: checked.message })
    return { ok: false, reason: 'invalid', message: text.message, text }
  }
  question.resolve({ action: 'accept', content: checked.content })
  return { ok: true }
}

/** The questions a job waits on in this process (a tab that reopened the chat shows them again). */
export function pendingJobQuestions(jobId: string): McpJobQuestionEvent[] {
  return [...(waiting.get(jobId) ?? new Map<string, WaitingQuestion>())]
    .map(([callId, question]) => ({ type: 'mcp-question', callId, serverName: question.serverName, request: question.request }))
}
