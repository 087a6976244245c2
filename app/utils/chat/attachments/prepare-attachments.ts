import type { AttachmentDraft } from '~/db/attachments'
import { createId } from '~/db/create-id'
import { MAX_ATTACHMENTS_PER_MESSAGE, MAX_CHAT_ATTACHMENT_BYTES, MAX_DOCUMENT_BYTES, MAX_IMAGE_INPUT_BYTES, formatFileSize } from './attachment-limits'
import { classifyFile } from './attachment-kind'
import { mcpResourceUriOf } from '../mcp/mcp-resource-handoff'
import type { ResizedImage } from './resize-image'

export interface PrepareAttachmentsOptions {
  /** Attachments already waiting in the composer. @default [] */
  pending?: readonly AttachmentDraft[]
  /** Bytes the chat's stored attachments take already. @default 0 */
  chatBytes?: number
  /** Resizes one image (the browser's canvas by default; tests hand a fake). */
  resize?: (file: File, mime: string) => Promise<ResizedImage>
}

/** The files that can go with the message, and a sentence for each one refused. */
export interface PreparedAttachments {
  drafts: AttachmentDraft[]
  refusals: string[]
}

/**
 * Checks picked, pasted or dropped files against the limits (kind, size, per message, per chat) and resizes the
 * images, in order. A refused file never stops the others; each refusal names its file and the reason.
 */
export async function prepareAttachments(files: readonly File[], options: PrepareAttachmentsOptions = {}): Promise<PreparedAttachments> {
  const { pending = [], chatBytes = 0 } = options
  const resize = options.resize ?? (async (file, mime) => (await import('./resize-image')).resizeImage(file, mime))
  const drafts: AttachmentDraft[] = []
  const refusals: string[] = []
  let usedBytes = chatBytes + pending.reduce((sum, draft) => sum + draft.size, 0)
  for (const file of files) {
    const name = file.name || 'pasted file'
    if (pending.length + drafts.length >= MAX_ATTACHMENTS_PER_MESSAGE) {
      refusals.push(`${name} was not attached: a message can carry at most ${MAX_ATTACHMENTS_PER_MESSAGE} files.`)
      continue
    }
    const classification = classifyFile({ name, type: file.type })
    if ('refused' in classification) {
      refusals.push(classification.refused)
      continue
    }
    const { kind, mime } = classification
    const inputCap = kind === 'image' ? MAX_IMAGE_INPUT_BYTES : MAX_DOCUMENT_BYTES
    if (file.size > inputCap) {
      refusals.push(`${name} is ${formatFileSize(file.size)}: ${kind === 'image' ? 'an image' : 'a document'} may have at most ${formatFileSize(inputCap)}.`)
      continue
    }
    if (file.size === 0) {
      refusals.push(`${name} is empty.`)
      continue
    }
    let draft: AttachmentDraft
    try {
      if (kind === 'image') {
        const image = await resize(file, mime)
        draft = { id: createId(), kind, name, mime: image.mime, size: image.blob.size, width: image.width, height: image.height, blob: image.blob }
      }
      else {
        const resourceUri = mcpResourceUriOf(file)
        draft = { id: createId(), kind, name, mime, size: file.size, blob: file, ...(resourceUri && { resourceUri }) }
      }
    }
    catch (error) {
      refusals.push(error instanceof Error ? error.message : `${name} could not be read.`)
      continue
    }
    if (usedBytes + draft.size > MAX_CHAT_ATTACHMENT_BYTES) {
      refusals.push(`${name} was not attached: the files of one chat may take at most ${formatFileSize(MAX_CHAT_ATTACHMENT_BYTES)}. Start a new chat for more.`)
      continue
    }
    usedBytes += draft.size
    drafts.push(draft)
  }
  return { drafts, refusals }
}
