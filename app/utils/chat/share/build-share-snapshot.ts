import { isWriting } from '~/db/message-status'
import type { AttachmentRecord, MessageRecord, MessageStatus, ToolCallStatus } from '~/db/types'
import { MAX_SHARED_IMAGES_PER_MESSAGE, MAX_SHARED_MESSAGES, SHARED_IMAGE_TYPES } from '#shared/share/share-constants'
import type { SharedImage, SharedMessage, ShareSnapshot } from '#shared/share/share-snapshot'

/** The base64 a snapshot's images may take together; images past it are named instead of shown. */
export const SHARED_IMAGES_BUDGET_BYTES = 3 * 1024 * 1024

/** An image attachment with its bytes already read as base64. */
export interface ShareImageSource {
  attachment: Pick<AttachmentRecord, 'id' | 'name' | 'mime' | 'kind'>
  base64: string
}

export interface BuildShareSnapshotInput {
  title: string
  /** The branch shown, in order. */
  rows: readonly MessageRecord[]
  /** The images of those rows' attachments, by attachment id. */
  images?: ReadonlyMap<string, ShareImageSource>
  takenAt: number
}

const FINISHED_TOOL_STATUSES = new Set<ToolCallStatus>(['done', 'error', 'cancelled', 'skipped', 'denied'])
const NOT_FINISHED = { kind: 'not-finished', message: 'Not finished when this chat was shared.' }

function sharedStatus(status: MessageStatus): SharedMessage['status'] {
  return isWriting(status) ? 'interrupted' : status
}

/**
 * A chat's branch as a shared snapshot: the fields the message and tool-card components show, every state a
 * finished one (a call still waiting reads as not finished), MCP Apps named but not carried (a shared view runs no
 * code), images inline while they fit the budget and named otherwise. Pure: the caller reads the rows and blobs.
 */
export function buildShareSnapshot(input: BuildShareSnapshotInput): ShareSnapshot {
  let imageBytes = 0
  const messages = input.rows.slice(-MAX_SHARED_MESSAGES).map((row): SharedMessage => {
    const images: SharedImage[] = []
    const files: string[] = []
    for (const attachment of row.attachments ?? []) {
      const image = input.images?.get(attachment.id)
      const fits = image && images.length < MAX_SHARED_IMAGES_PER_MESSAGE && imageBytes + image.base64.length <= SHARED_IMAGES_BUDGET_BYTES
        && (SHARED_IMAGE_TYPES as readonly string[]).includes(attachment.mime)
      if (fits) {
        imageBytes += image.base64.length
        images.push({ name: attachment.name.slice(0, 300), mime: attachment.mime as SharedImage['mime'], data: image.base64 })
      }
      else {
        files.push(attachment.name.slice(0, 300))
      }
    }
    const toolUnfinished = row.role === 'tool' && row.toolStatus !== undefined && !FINISHED_TOOL_STATUSES.has(row.toolStatus)
    const error = toolUnfinished ? NOT_FINISHED : row.error && { kind: row.error.kind.slice(0, 100), message: row.error.message.slice(0, 4000) }
    const notices = row.notices ?? (row.notice ? [row.notice] : undefined)
    return {
      id: row.id,
      role: row.role,
      content: row.content ?? '',
      ...(row.reasoning && { reasoning: row.reasoning }),
      status: sharedStatus(row.status),
      ...(error && { error }),
      ...(row.toolCalls?.length && { toolCalls: row.toolCalls.map(call => ({ id: call.id, type: 'function' as const, function: { name: call.function.name, arguments: call.function.arguments } })) }),
      ...(row.toolCallId && { toolCallId: row.toolCallId }),
      ...(row.toolName && { toolName: row.toolName }),
      ...(row.toolArguments !== undefined && { toolArguments: row.toolArguments }),
      ...(row.toolStatus && { toolStatus: toolUnfinished ? 'cancelled' as const : row.toolStatus as SharedMessage['toolStatus'] }),
      ...(row.toolResultFull !== undefined && { toolResultFull: row.toolResultFull }),
      ...(row.truncated && { truncated: true }),
      ...(row.startedAt !== undefined && { startedAt: row.startedAt }),
      ...(row.finishedAt !== undefined && { finishedAt: row.finishedAt }),
      ...(notices?.length && { notices: notices.slice(0, 20).map(each => ({ kind: each.kind.slice(0, 100), message: each.message.slice(0, 4000) })) }),
      ...(images.length && { images }),
      ...(files.length && { files: files.slice(0, 64) }),
      ...(row.mcpApp && { mcpAppName: `${row.mcpApp.serverName} · ${row.mcpApp.toolName}`.slice(0, 300) }),
      ...(row.model && { model: row.model.slice(0, 300) }),
      createdAt: row.createdAt,
    }
  })
  return { version: 1, title: input.title.slice(0, 500) || 'Untitled chat', takenAt: input.takenAt, messages }
}
