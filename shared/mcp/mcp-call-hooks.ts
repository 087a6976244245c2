/**
 * What a running MCP tool call may bring besides its result: progress (`notifications/progress`) and questions to the
 * user (`elicitation/create`). The connection keeps its running calls here; a question goes to the call that asked
 * (the oldest running call that takes questions: the protocol does not name the call), one at a time per call.
 * A call's clock restarts with every progress report and stops while the user is asked, so a long job that reports
 * keeps running and a user who takes time to answer is not cut off; `MCP_CALL_MAX_MS` bounds it all.
 */
import type { ElicitationContent, ElicitationForm } from './mcp-elicitation-form'
import { readElicitationSchema } from './mcp-elicitation-form'
import { MAX_ELICITATION_MESSAGE_CHARS, MCP_CALL_IDLE_TIMEOUT_MS, MCP_CALL_MAX_MS } from './mcp-limits'

export interface McpCallProgress {
  progress: number
  total?: number
  message?: string
}

/** A question of the server, checked: a form to fill, or a page to open (URL mode). */
export type McpElicitationRequest =
  | { mode: 'form', message: string, form: ElicitationForm }
  | { mode: 'url', message: string, url: string, elicitationId: string }

export type McpElicitationAnswer =
  | { action: 'accept', content?: ElicitationContent }
  | { action: 'decline' | 'cancel' }

export interface McpCallHooks {
  onProgress?: (progress: McpCallProgress) => void
  /** Asks the user; `signal` aborts when the call ends or the server withdraws the question. */
  onElicit?: (request: McpElicitationRequest, signal: AbortSignal) => Promise<McpElicitationAnswer>
}

/** What `elicitation/create` is answered with (the SDK's ElicitResult); a refusal says why in `_meta`. */
export type McpElicitResult = McpElicitationAnswer & { _meta?: Record<string, unknown> }

/** The key of a refusal's reason in the answer's `_meta`. */
export const ELICITATION_REFUSAL_META_KEY = 'dev.plugboard/reason'

interface RunningCall {
  hooks: McpCallHooks
  signal: AbortSignal
  asking: boolean
  ended: boolean
  pause: () => void
  resume: () => void
}

export interface McpCallRun {
  /** Aborted by the outer signal (Stop), by silence past the idle limit, or past the maximum. */
  signal: AbortSignal
  onprogress: (progress: McpCallProgress) => void
  end: () => void
}

export interface McpRunningCallsOptions {
  /** @default MCP_CALL_IDLE_TIMEOUT_MS */
  idleMs?: number
  /** @default MCP_CALL_MAX_MS */
  maxMs?: number
}

function refuse(reason: string): McpElicitResult {
  return { action: 'decline', _meta: { [ELICITATION_REFUSAL_META_KEY]: reason } }
}

/** The running calls of one connection. */
export function createMcpRunningCalls(options: McpRunningCallsOptions = {}) {
  const { idleMs = MCP_CALL_IDLE_TIMEOUT_MS, maxMs = MCP_CALL_MAX_MS } = options
  const calls: RunningCall[] = []

  /** Starts the clock of one call; `end()` when it settled. */
  function begin(hooks: McpCallHooks, outer?: AbortSignal): McpCallRun {
    const controller = new AbortController()
    let idle: ReturnType<typeof setTimeout> | undefined
    const stopIdle = () => clearTimeout(idle)
    const startIdle = () => {
      stopIdle()
      idle = setTimeout(() => controller.abort(new Error(`the MCP server sent nothing for ${Math.round(idleMs / 1000)} s`)), idleMs)
    }
    const longest = setTimeout(() => controller.abort(new Error(`the MCP call ran longer than ${Math.round(maxMs / 60_000)} min`)), maxMs)
    const onOuterAbort = () => controller.abort(outer?.reason)
    if (outer?.aborted) onOuterAbort()
    outer?.addEventListener('abort', onOuterAbort, { once: true })
    const call: RunningCall = { hooks, signal: controller.signal, asking: false, ended: false, pause: stopIdle, resume: startIdle }
    calls.push(call)
    startIdle()
    return {
      signal: controller.signal,
      onprogress(progress) {
        if (!call.asking) startIdle()
        hooks.onProgress?.({ progress: progress.progress, ...(progress.total !== undefined && { total: progress.total }), ...(progress.message !== undefined && { message: String(progress.message).slice(0, 200) }) })
      },
      end() {
        call.ended = true
        stopIdle()
        clearTimeout(longest)
        outer?.removeEventListener('abort', onOuterAbort)
        const index = calls.indexOf(call)
        if (index >= 0) calls.splice(index, 1)
      },
    }
  }

  /** Answers `elicitation/create` (params as the SDK checked them) through the asking call's `onElicit`. */
  async function elicit(params: Record<string, unknown>, serverSignal: AbortSignal): Promise<McpElicitResult> {
    const call = calls.find(item => item.hooks.onElicit && !item.signal.aborted)
    if (!call?.hooks.onElicit) return refuse('no tool call of this server that can ask the user is running')
    if (call.asking) return refuse('the user is already answering a question of this call; ask one at a time')
    const message = String(params.message ?? '').slice(0, MAX_ELICITATION_MESSAGE_CHARS)
    let request: McpElicitationRequest
    if (params.mode === 'url') {
      const url = typeof params.url === 'string' && URL.canParse(params.url) ? new URL(params.url) : undefined
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return refuse('the URL to open is not an http(s) address')
      request = { mode: 'url', message, url: url.href, elicitationId: String(params.elicitationId ?? '') }
    }
    else {
      const form = readElicitationSchema(params.requestedSchema)
      if ('problem' in form) return refuse(`the form cannot be shown: ${form.problem}`)
      request = { mode: 'form', message, form }
    }
    call.asking = true
    call.pause()
    try {
      const answer = await call.hooks.onElicit(request, AbortSignal.any([serverSignal, call.signal]))
      if (answer.action !== 'accept') return { action: answer.action }
      return request.mode === 'form' ? { action: 'accept', content: answer.content ?? {} } : { action: 'accept' }
    }
    catch {
      return { action: 'cancel' }
    }
    finally {
      call.asking = false
      if (!call.ended && !call.signal.aborted) call.resume()
    }
  }

  return { begin, elicit }
}
