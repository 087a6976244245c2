import type { LoopEvent } from '#shared/loop/loop-event'
import type { ToolResult } from '#shared/tools/tool-types'
import { pruneAudit } from './audit'
import { createId } from './create-id'
import { getDatabase } from './database'
import type { AuditRecord } from './types'

export interface AuditRecorderOptions {
  /** The oldest start time to keep (ms since the epoch), read at each prune; undefined keeps every run. */
  cutoff?: () => number | undefined
  /** How often writes prune old runs, at most. @default 60_000 */
  pruneIntervalMs?: number
  /** Told when the log cannot be written (the chat itself goes on). @default console.error */
  onStorageError?: (error: Error) => void
  /** @default Date.now */
  now?: () => number
}

export interface AuditRecorder {
  /**
   * Hand it every LoopEvent of a chat, in order, with the chat's id (a run in this tab or on the server).
   * `requestedBy` marks a call the model did not ask for (an MCP App's: `app:<tool of its card>`).
   */
  record: (event: LoopEvent, threadId?: string, requestedBy?: string) => Promise<void>
  /** Resolves when every write asked for so far has landed. */
  settled: () => Promise<void>
}

type ByWhom = Pick<AuditRecord, 'requestedBy'>

/** Runs still open in a chat end in one of these; a row in another status is finished and never reopened. */
const OPEN_STATUSES = new Set<string>(['queued', 'awaiting-approval', 'running'])

/** Bytes of the UTF-8 text, without allocating it. */
function utf8Length(text: string): number {
  let bytes = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xD800 && code <= 0xDBFF && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xFC00) === 0xDC00) {
      bytes += 4
      index++
    }
    else bytes += 3
  }
  return bytes
}

/**
 * The audit log's listener: turns the tool-call LoopEvents of every chat into one `audit` row per call —
 * arguments as asked and as run, the approval decision and when, status, duration, result size, cut or not. It
 * only listens; the chat never waits for it and a failed write never ends a chat.
 */
export function createAuditRecorder(options: AuditRecorderOptions = {}): AuditRecorder {
  const { cutoff, pruneIntervalMs = 60_000, onStorageError = (error: Error) => console.error(error), now = Date.now } = options
  /** Row id of each open call, by chat and call id; forgotten when the call ends or the run finishes. */
  const rows = new Map<string, Promise<string | undefined>>()
  let queue: Promise<unknown> = Promise.resolve()
  let lastPrune = Number.NEGATIVE_INFINITY

  const enqueue = (task: () => Promise<unknown>): Promise<void> => {
    const next = queue.then(task).then(() => {}, (error: unknown) => {
      onStorageError(error as Error)
    })
    queue = next
    return next
  }

  const keyOf = (threadId: string | undefined, callId: string) => `${threadId ?? ''}\u0000${callId}`

  /**
   * The open row of a call: this recorder's, else (`mayBeOpen`: an event that comes after a call started) one a
   * recording before a reload left open, else a new one.
   */
  function rowFor(threadId: string | undefined, callId: string, fields: Pick<AuditRecord, 'toolName' | 'argumentsAsked' | 'requestedBy'>, mayBeOpen: boolean): Promise<string | undefined> {
    const key = keyOf(threadId, callId)
    let row = rows.get(key)
    if (!row) {
      row = (async () => {
        const db = getDatabase()
        if (threadId && mayBeOpen) {
          // few runs are open at any time: the status index finds them without walking the chat's history
          const earlier = await db.audit.where('status').anyOf([...OPEN_STATUSES]).filter(record => record.threadId === threadId && record.toolCallId === callId).first()
          if (earlier) return earlier.id
        }
        const threadTitle = threadId ? (await db.threads.get(threadId))?.title : undefined
        const record: AuditRecord = { id: createId(), toolCallId: callId, threadId, threadTitle, status: 'queued', startedAt: now(), ...fields }
        await db.audit.add(record)
        await prune()
        return record.id
      })()
      rows.set(key, row)
    }
    return row
  }

  async function prune() {
    const oldest = cutoff?.()
    if (oldest === undefined || now() - lastPrune < pruneIntervalMs) return
    lastPrune = now()
    await pruneAudit(oldest)
  }

  /**
   * Applies `patch` to the call's row. `stage`: 'start' opens a call (a new row unless this recorder knows it),
   * 'on' goes on with one, 'end' ends it (and forgets it).
   */
  function update(threadId: string | undefined, callId: string, fields: Pick<AuditRecord, 'toolName' | 'argumentsAsked' | 'requestedBy'>, patch: (row: AuditRecord) => Partial<AuditRecord>, stage: 'start' | 'on' | 'end') {
    const last = stage === 'end'
    return enqueue(async () => {
      const id = await rowFor(threadId, callId, fields, stage !== 'start')
      if (last) rows.delete(keyOf(threadId, callId))
      if (!id) return
      const db = getDatabase()
      await db.transaction('rw', db.audit, async () => {
        const row = await db.audit.get(id)
        if (row) await db.audit.update(id, patch(row))
      })
    })
  }

  function end(threadId: string | undefined, result: ToolResult, by: ByWhom) {
    return update(threadId, result.callId, { toolName: result.name, argumentsAsked: result.arguments, ...by }, row => ({
      // a refused call ends as an error or a cancel in the loop: the log keeps why it did not run
      status: row.status === 'denied' && result.status !== 'done' ? 'denied' : result.status,
      // the executor's clock: a server-run chat's events may be recorded here long after they happened
      startedAt: Math.min(row.startedAt, result.startedAt),
      finishedAt: result.finishedAt,
      durationMs: Math.max(0, result.finishedAt - result.startedAt),
      resultBytes: utf8Length(result.fullContent),
      truncated: result.truncated,
      error: result.error?.message,
    }), 'end')
  }

  async function record(event: LoopEvent, threadId?: string, requestedBy?: string): Promise<void> {
    const by: ByWhom = requestedBy ? { requestedBy } : {}
    switch (event.type) {
      case 'tool-call-awaiting-approval': {
        const { call } = event
        return update(threadId, call.id, { toolName: call.function.name, argumentsAsked: call.function.arguments, ...by }, () => ({ status: 'awaiting-approval' }), 'start')
      }
      case 'tool-call-approval': {
        const refused = event.decision === 'denied' || event.decision === 'never' || event.decision === 'no-answer'
        return update(threadId, event.callId, { toolName: event.toolName, argumentsAsked: event.askedArguments, ...by }, row => ({
          decision: event.decision,
          decidedAt: event.decidedAt,
          argumentsAsked: event.askedArguments,
          argumentsRun: refused ? undefined : event.arguments,
          status: refused ? 'denied' : row.status === 'awaiting-approval' ? 'queued' : row.status,
        }), 'on')
      }
      case 'tool-call-running': {
        const { call } = event
        return update(threadId, call.id, { toolName: call.function.name, argumentsAsked: call.function.arguments, ...by }, () => ({
          status: 'running',
          argumentsRun: call.function.arguments,
        }), 'on')
      }
      case 'tool-call-done':
      case 'tool-call-error':
        return end(threadId, event.result, by)
      case 'finish':
      case 'fail':
        // calls that never ended (a run cut short) are not waited for any more: bounded memory for a long session
        return enqueue(async () => {
          for (const key of rows.keys()) {
            if (key.startsWith(`${threadId ?? ''}\u0000`)) rows.delete(key)
          }
        })
      default:
    }
  }

  return {
    record,
    settled: () => enqueue(async () => {}),
  }
}
