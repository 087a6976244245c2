import { StorageError } from '#shared/errors/storage-error'
import { getDatabase, type PlugboardDatabase } from './database'
import type { MessagePatch } from './messages'

export interface StreamingWriterOptions {
  /** @default getDatabase() */
  db?: PlugboardDatabase
  /**
   * Least time between two writes, in milliseconds. `Infinity`: only `flush()` and `finalise()` write (a server-run
   * chat writes its rows with each checkpoint of the job's last event id). @default 250
   */
  intervalMs?: number
  /**
   * Told about failures of the throttled writes made in the background. Failures of `flush()` and `finalise()`
   * reject those calls instead. @default console.error
   */
  onError?: (error: StorageError) => void
  /** What the row already holds, when writing on after a reload (a chat that ran on the server). @default '' */
  initialText?: string
  /** @default '' */
  initialReasoning?: string
}

export interface StreamingWriter {
  /** Adds reply text; stored with the next throttled write. */
  appendText: (delta: string) => void
  /** Adds reasoning text; stored with the next throttled write. */
  appendReasoning: (delta: string) => void
  /** Other fields (status, usage...) merged into the next write. */
  setPatch: (patch: MessagePatch) => void
  /** Writes what is pending now and waits for every write so far. Rejects with a StorageError if the write fails. */
  flush: () => Promise<void>
  /**
   * The last write: text so far plus `patch`. Runs once; later calls resolve false and write nothing, and
   * appends after it are ignored. Rejects with a StorageError if the write fails.
   */
  finalise: (patch: MessagePatch) => Promise<boolean>
  /** Drops what is pending and writes nothing more (its row is about to go); resolves once earlier writes landed. */
  discard: () => Promise<void>
}

/**
 * Keeps a streaming reply in memory and writes it to its message row throttled: the first delta at once, then at
 * most one write per interval, and always a trailing write for the last deltas. Writes are serialised, so a
 * slow write never lands after a newer one.
 */
export function createStreamingWriter(messageId: string, options: StreamingWriterOptions = {}): StreamingWriter {
  const { intervalMs = 250, onError = (error: StorageError) => console.error(error) } = options
  let text = options.initialText ?? ''
  let reasoning = options.initialReasoning ?? ''
  let textTouched = false
  let reasoningTouched = false
  let patch: MessagePatch = {}
  let dirty = false
  let finalised = false
  let lastWriteAt = Number.NEGATIVE_INFINITY
  let timer: ReturnType<typeof setTimeout> | undefined
  /** The writes so far, in order; never rejects so one failure does not block the next write. */
  let chain: Promise<void> = Promise.resolve()

  function write(extra: MessagePatch = {}): Promise<void> {
    // Only fields that were streamed are written: an untouched field keeps what the row already holds.
    const changes: MessagePatch = { ...patch, ...extra }
    if (textTouched && extra.content === undefined) changes.content = text
    if (reasoningTouched && extra.reasoning === undefined) changes.reasoning = reasoning
    changes.updatedAt = Date.now()
    patch = {}
    dirty = false
    lastWriteAt = Date.now()
    const done = chain.then(async () => {
      let updated: number
      try {
        updated = await (options.db ?? getDatabase()).messages.update(messageId, changes)
      }
      catch (cause) {
        throw new StorageError('The reply could not be saved.', { operation: 'write streaming message', cause })
      }
      if (!updated) throw new StorageError(`The reply could not be saved: message ${messageId} no longer exists.`, { operation: 'write streaming message' })
    })
    chain = done.catch(() => {})
    return done
  }

  function writeInBackground() {
    timer = undefined
    if (!dirty || finalised) return
    write().catch(onError)
  }

  function schedule() {
    if (finalised) return
    dirty = true
    if (timer !== undefined || intervalMs === Number.POSITIVE_INFINITY) return
    const wait = lastWriteAt + intervalMs - Date.now()
    if (wait <= 0) writeInBackground()
    else timer = setTimeout(writeInBackground, wait)
  }

  function cancelTimer() {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
  }

  return {
    appendText(delta) {
      if (finalised || !delta) return
      text += delta
      textTouched = true
      schedule()
    },
    appendReasoning(delta) {
      if (finalised || !delta) return
      reasoning += delta
      reasoningTouched = true
      schedule()
    },
    setPatch(next) {
      if (finalised) return
      patch = { ...patch, ...next }
      schedule()
    },
    flush() {
      cancelTimer()
      return dirty && !finalised ? write() : chain
    },
    discard() {
      finalised = true
      cancelTimer()
      return chain
    },
    async finalise(finalPatch) {
      if (finalised) return false
      finalised = true
      cancelTimer()
      await write(finalPatch)
      return true
    },
  }
}
