import { requireOwner } from '../../../utils/accounts/request-owner'
import { requireSync } from '../../../utils/sync/require-sync'
import { useSyncBlobStore } from '../../../utils/sync/use-sync-blobs'
import { userError } from '../../../utils/http/user-error'

/**
 * GET /api/sync/blobs/:id: one synced file of the caller. Another owner's id answers 404 like an unknown one, so
 * nobody learns which ids exist. Sent as an attachment download, never rendered as a page of this origin.
 */
export default defineEventHandler(async (event) => {
  requireSync()
  const { ownerId } = await requireOwner(event)
  const id = getRouterParam(event, 'id') ?? ''
  const blob = await useSyncBlobStore().get(ownerId, id)
  if (!blob) throw userError(404, 'Not Found', 'server.sync.noSuchFile')
  setResponseHeaders(event, {
    'content-type': 'application/octet-stream',
    'x-plugboard-mime': blob.mime,
    'content-disposition': 'attachment',
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
  })
  return blob.data
})
