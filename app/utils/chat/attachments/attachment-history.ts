import type { UserMessage } from '#shared/types/chat'
import { attachmentsOfMessages } from '~/db/attachments'
import { updateMessage } from '~/db/messages'
import type { MessageRecord } from '~/db/types'
import { attachmentContent, imagesNotSentNote } from './attachment-content'

/** The kind of the note on a user message whose images the model could not read. */
export const IMAGES_NOT_SENT = 'images-not-sent'

/**
 * What each user row with attachments is sent as (for `toModelMessages({ userContent })`), read from the stored
 * blobs. When the model reads no images, the rows whose images stay out get a note saying so (or lose a note that
 * no longer holds), so the user sees it in the chat.
 */
export async function attachmentContentsOf(records: readonly MessageRecord[], options: { acceptsImages: boolean | (() => Promise<boolean>) }): Promise<(record: MessageRecord) => UserMessage['content'] | undefined> {
  const withFiles = records.filter(record => record.role === 'user' && record.attachments?.length)
  const contents = new Map<string, UserMessage['content']>()
  if (withFiles.length === 0) return () => undefined
  // asked only when the history has an image (on OpenRouter it reads the model list)
  const hasImages = withFiles.some(record => record.attachments!.some(file => file.kind === 'image'))
  const acceptsImages = hasImages && (typeof options.acceptsImages === 'boolean' ? options.acceptsImages : await options.acceptsImages())
  const stored = await attachmentsOfMessages(withFiles.map(record => record.id))
  for (const record of withFiles) {
    const { content, imagesNotSent } = await attachmentContent(record, stored.get(record.id) ?? [], { acceptsImages })
    contents.set(record.id, content)
    const notice = imagesNotSent.length ? { kind: IMAGES_NOT_SENT, message: imagesNotSentNote(imagesNotSent) } : undefined
    if (notice?.message !== record.notice?.message && (notice || record.notice?.kind === IMAGES_NOT_SENT)) {
      await updateMessage(record.id, notice ? { notice, notices: [notice] } : { notice: undefined, notices: undefined })
    }
  }
  return record => contents.get(record.id)
}
