/**
 * A chat's attachments in a history file: each file whole, as base64 with its type and name, beside the rows. On
 * import they are checked (kind, type, size, the message they belong to, the bytes), decoded and given fresh ids.
 */
import '../zod-without-eval'
import { z } from 'zod'
import type { AttachmentRecord, AttachmentSummary, MessageRecord } from '~/db/types'
import { classifyFile } from '../attachments/attachment-kind'
import { base64ToBytes, bytesToBase64 } from '../attachments/attachment-content'
import { MAX_ATTACHMENTS_PER_MESSAGE, MAX_DOCUMENT_BYTES } from '../attachments/attachment-limits'

/** An attachment as written: the row without its chat, and the blob as base64 in `data`. */
export type ExportedAttachment = Omit<AttachmentRecord, 'threadId' | 'blob'> & { data: string }

/** The rows as they go in a file (oldest first). */
export async function exportAttachments(rows: readonly AttachmentRecord[]): Promise<ExportedAttachment[]> {
  return Promise.all(rows.map(async ({ threadId: _thread, blob, ...fields }) => ({ ...fields, data: bytesToBase64(new Uint8Array(await blob.arrayBuffer())) })))
}

const name = z.string().min(1).max(1000)
const id = z.string().min(1).max(200)
const size = z.number().int().min(0).max(MAX_DOCUMENT_BYTES)
const pixels = z.number().int().min(1).max(100_000).optional()

/** What a message row says about its files. */
export const attachmentSummarySchema = z.object({
  id, kind: z.enum(['image', 'document']), name, mime: z.string().max(200), size, width: pixels, height: pixels,
  // an MCP resource's URI: its text keeps travelling inline with the message after an import
  resourceUri: z.string().max(2_000).optional(),
})
export const messageAttachmentsSchema = z.array(attachmentSummarySchema).max(MAX_ATTACHMENTS_PER_MESSAGE)

// base64 of a file of at most MAX_DOCUMENT_BYTES
const MAX_DATA_CHARS = Math.ceil(MAX_DOCUMENT_BYTES / 3) * 4
const exportedAttachmentSchema = attachmentSummarySchema.extend({
  messageId: id,
  createdAt: z.number().min(0),
  data: z.string().max(MAX_DATA_CHARS).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64'),
})

/** An attachment read from a file (ids still the file's, bytes decoded). */
export type ImportedAttachment = Omit<AttachmentRecord, 'threadId' | 'blob'> & { bytes: Uint8Array }

/** The chat's attachments of a file, or the problems found (added to `problems`). */
export function readAttachments(value: unknown, messages: readonly { id: string, attachments?: AttachmentSummary[] }[], at: string, problems: string[]): ImportedAttachment[] {
  if (value === undefined) return []
  const parsed = z.array(exportedAttachmentSchema).max(messages.length * MAX_ATTACHMENTS_PER_MESSAGE).safeParse(value)
  if (!parsed.success) {
    problems.push(...parsed.error.issues.slice(0, 5).map(issue => `${[`${at}.attachments`, ...issue.path.map(String)].join('.')}: ${issue.message}`))
    return []
  }
  const listed = new Map(messages.flatMap(message => (message.attachments ?? []).map(summary => [summary.id, message.id] as const)))
  const seen = new Set<string>()
  const result: ImportedAttachment[] = []
  for (const [index, { data, ...fields }] of parsed.data.entries()) {
    const where = `${at}.attachments[${index}]`
    const kind = classifyFile({ name: fields.name, type: fields.mime })
    const bytes = base64ToBytes(data)
    if (seen.has(fields.id)) problems.push(`${where}: two attachments have the id ${JSON.stringify(fields.id).slice(0, 80)}`)
    else if (listed.get(fields.id) !== fields.messageId) problems.push(`${where}: the message it belongs to does not list it`)
    else if ('refused' in kind || kind.kind !== fields.kind) problems.push(`${where}: ${fields.mime.slice(0, 80)} is not a type of ${fields.kind} this app accepts`)
    else if (bytes.length !== fields.size) problems.push(`${where}: holds ${bytes.length} bytes, its size says ${fields.size}`)
    else result.push({ ...fields, bytes })
    seen.add(fields.id)
  }
  return result
}

/**
 * The attachments as rows of the stored chat: fresh ids, the new ids of their messages, and each message's list
 * of files rewritten to match.
 */
export function toStoredAttachments(attachments: readonly ImportedAttachment[], threadId: string, newMessageIds: ReadonlyMap<string, string>, messages: MessageRecord[], createId: () => string): AttachmentRecord[] {
  const newIds = new Map(attachments.map(attachment => [attachment.id, createId()]))
  for (const message of messages) {
    if (message.attachments) message.attachments = message.attachments.filter(summary => newIds.has(summary.id)).map(summary => ({ ...summary, id: newIds.get(summary.id)! }))
  }
  return attachments.map(({ bytes, ...fields }) => ({
    ...fields,
    id: newIds.get(fields.id)!,
    messageId: newMessageIds.get(fields.messageId)!,
    threadId,
    blob: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: fields.mime }),
  }))
}
