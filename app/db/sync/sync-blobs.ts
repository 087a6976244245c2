import { shallowRef } from 'vue'
import type { SyncChange } from '#shared/sync/sync-record'
import type { PlugboardDatabase } from '../database'
import type { AttachmentRecord, AttachmentSummary } from '../types'
import { retryDelayMs } from './wanted-files'
import { appText, appTextWithReason, refusalText } from '#shared/errors/app-messages'
import type { CodedText } from '#shared/errors/coded-text'

/** A file that did not sync, and why: the device state lists them (the message itself synced). */
export interface SyncBlobIssue {
  id: string
  name: string
  message: string
  /** `message` as a code, for the user's language. */
  text?: CodedText
}

/** The files of this page's sync that stayed behind, newest last (bounded: the latest few are what matters). */
export const syncBlobIssues = shallowRef<readonly SyncBlobIssue[]>([])
const MAX_ISSUES = 20

export function reportBlobIssue(issue: SyncBlobIssue): void {
  syncBlobIssues.value = [...syncBlobIssues.value.filter(each => each.id !== issue.id), issue].slice(-MAX_ISSUES)
}

/** The attachments a message change names. */
export function attachmentsOfChange(change: SyncChange): AttachmentSummary[] {
  if (change.kind !== 'message' || !change.body || !Array.isArray(change.body.attachments)) return []
  return (change.body.attachments as AttachmentSummary[]).filter(each => typeof each?.id === 'string')
}

/** A file request the server failed (5xx): worth trying again later. */
export class SyncServerError extends Error {
  readonly text: CodedText
  constructor(readonly status: number) {
    const text = appText('app.serverAnswered', { status })
    super(text.message)
    this.text = text
  }
}

async function refusalOf(response: Response): Promise<CodedText> {
  return refusalText(await response.json().catch(() => undefined), response.status)
}

function blobIssue(summary: AttachmentSummary, text: CodedText): SyncBlobIssue {
  return { id: summary.id, name: summary.name, message: text.message, text }
}

/**
 * Uploads the files of the messages about to be pushed, before the push, so a device that pulls a message can fetch
 * its files. A refused file (over a cap) is reported and the message goes on; a failure to reach the server throws,
 * so the push waits and is retried with its files.
 */
export async function uploadBlobsOf(db: PlugboardDatabase, changes: readonly SyncChange[], request: typeof fetch, uploaded: Set<string>): Promise<void> {
  for (const change of changes) {
    for (const summary of attachmentsOfChange(change)) {
      if (uploaded.has(summary.id)) continue
      const record = await db.attachments.get(summary.id)
      if (!record) continue
      const query = new URLSearchParams({ message: change.id, mime: record.mime || 'application/octet-stream' })
      const response = await request(`/api/sync/blobs/${encodeURIComponent(summary.id)}?${query}`, { method: 'PUT', credentials: 'same-origin', body: record.blob })
      if (response.ok) uploaded.add(summary.id)
      else if (response.status >= 500) throw new SyncServerError(response.status)
      else reportBlobIssue(blobIssue(summary, await refusalOf(response)))
    }
  }
}

/** A message whose files this device still lacks: fetched after each pull until they arrive or are refused. */
export interface WantedBlobs {
  threadId: string
  messageId: string
  attachments: AttachmentSummary[]
  /** Failed tries so far (the server down or failing): the pause before the next grows with them. */
  attempts?: number
  /** Not tried again before this time (ms since the epoch). */
  retryAt?: number
}

export interface FetchBlobsOptions {
  /** Called with each file stored (a document gets its search passages built from it). */
  onStored?: (record: AttachmentRecord) => void
  /** The longest pause between tries of one message's files. @default 30000 */
  maxRetryMs?: number
}

/** The files pulled messages name that this device does not hold yet. */
export async function missingBlobsOf(db: PlugboardDatabase, changes: readonly SyncChange[]): Promise<WantedBlobs[]> {
  const wanted: WantedBlobs[] = []
  for (const change of changes) {
    const attachments = attachmentsOfChange(change)
    if (attachments.length === 0) continue
    const held = await db.attachments.bulkGet(attachments.map(each => each.id))
    const missing = attachments.filter((_each, index) => !held[index])
    if (missing.length > 0) wanted.push({ threadId: String(change.body!.threadId), messageId: change.id, attachments: missing })
  }
  return wanted
}

/**
 * Fetches and stores wanted files; resolves with those still to fetch. A file the server does not have (never
 * uploaded, over a cap) is reported and dropped; a network failure or a server error keeps it for a later try,
 * after a pause that grows with each failure (`retryAt`).
 */
export async function fetchBlobs(db: PlugboardDatabase, wanted: readonly WantedBlobs[], request: typeof fetch, options: FetchBlobsOptions = {}): Promise<WantedBlobs[]> {
  const left: WantedBlobs[] = []
  for (const entry of wanted) {
    const still: AttachmentSummary[] = []
    for (const [index, summary] of entry.attachments.entries()) {
      try {
        const response = await request(`/api/sync/blobs/${encodeURIComponent(summary.id)}`, { credentials: 'same-origin' })
        if (!response.ok) {
          if (response.status >= 500) throw new SyncServerError(response.status)
          reportBlobIssue(blobIssue(summary, appTextWithReason('app.sync.notOnServer', await refusalOf(response))))
          continue
        }
        const blob = new Blob([await response.arrayBuffer()], { type: summary.mime })
        // The message may have been deleted meanwhile: a file without its message is not kept.
        const stored = await db.transaction('rw', db.messages, db.attachments, async () => {
          if (!await db.messages.get(entry.messageId)) return undefined
          const record: AttachmentRecord = { ...summary, threadId: entry.threadId, messageId: entry.messageId, blob, createdAt: Date.now() + index }
          await db.attachments.put(record)
          return record
        })
        if (stored) options.onStored?.(stored)
      }
      catch {
        still.push(summary)
      }
    }
    if (still.length > 0) {
      const attempts = (entry.attempts ?? 0) + 1
      left.push({ ...entry, attachments: still, attempts, retryAt: Date.now() + retryDelayMs(attempts, options.maxRetryMs ?? 30_000) })
    }
  }
  return left
}
