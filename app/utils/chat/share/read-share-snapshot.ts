import { attachmentsOfMessages } from '~/db/attachments'
import { listMessages } from '~/db/messages'
import { getThread } from '~/db/threads'
import { bytesToBase64 } from '~/utils/chat/attachments/attachment-content'
import type { ShareSnapshot } from '#shared/share/share-snapshot'
import { buildShareSnapshot } from './build-share-snapshot'
import type { ShareImageSource } from './build-share-snapshot'

/** The snapshot of chat `threadId` as it shows now: the branch shown, with its images read from this browser's storage. */
export async function readShareSnapshot(threadId: string, now = Date.now()): Promise<ShareSnapshot> {
  const [thread, rows] = await Promise.all([getThread(threadId), listMessages(threadId)])
  if (!thread) throw new Error('This chat is no longer stored in this browser.')
  if (rows.length === 0) throw new Error('This chat has no messages to share yet.')
  const withImages = rows.filter(row => row.attachments?.some(each => each.kind === 'image')).map(row => row.id)
  const images = new Map<string, ShareImageSource>()
  if (withImages.length) {
    for (const attachments of (await attachmentsOfMessages(withImages)).values()) {
      for (const attachment of attachments) {
        if (attachment.kind !== 'image') continue
        images.set(attachment.id, { attachment, base64: bytesToBase64(new Uint8Array(await attachment.blob.arrayBuffer())) })
      }
    }
  }
  return buildShareSnapshot({ title: thread.title, rows, images, takenAt: now })
}
