import { z } from 'zod'
import { MAX_BLOB_BYTES, MAX_ID_LENGTH } from '#shared/sync/sync-limits'
import { requireOwner } from '../../../utils/accounts/request-owner'
import { bodyTooLargeError, readBoundedBytes } from '../../../utils/http/read-bounded-body'
import { requireSync } from '../../../utils/sync/require-sync'
import { SyncBlobTooLargeError } from '../../../utils/sync/sync-blob-store'
import { useSyncBlobStore } from '../../../utils/sync/use-sync-blobs'
import { userError } from '../../../utils/http/user-error'

const idSchema = z.string().min(1).max(MAX_ID_LENGTH).regex(/^[\w.:-]+$/)
const querySchema = z.object({
  message: idSchema,
  mime: z.string().min(1).max(200).regex(/^[\w.+-]+\/[\w.+-]+$/),
})

/**
 * PUT /api/sync/blobs/:id?message=&mime=: stores one file of a synced message for the caller (the body is the
 * file). Sending it again is a no-op. Over the per-file or per-account cap: 413 with a message naming the cap.
 */
export default defineEventHandler(async (event) => {
  requireSync()
  const { ownerId } = await requireOwner(event)
  const id = idSchema.safeParse(getRouterParam(event, 'id'))
  const query = querySchema.safeParse(getQuery(event))
  if (!id.success || !query.success) throw userError(400, 'Bad Request', 'server.sync.fileQuery')
  const data = await readBoundedBytes(event, MAX_BLOB_BYTES)
  try {
    await useSyncBlobStore().put(ownerId, { id: id.data, messageId: query.data.message, mime: query.data.mime, data })
  }
  catch (error) {
    if (error instanceof SyncBlobTooLargeError) throw bodyTooLargeError(event, error.max, error.text)
    throw error
  }
  return { stored: true }
})
