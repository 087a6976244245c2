import { requireOwner } from '../../utils/accounts/request-owner'
import { requireSync } from '../../utils/sync/require-sync'
import { pipeSyncEvents } from '../../utils/sync/sync-event-stream'
import { useSyncNotifier } from '../../utils/sync/use-sync'

/**
 * GET /api/sync/events: server-sent events, one `data: {"cursor":n}` each time the owner's records change, so an
 * open device pulls at once. Held open; a few per owner.
 */
export default defineEventHandler(async (event) => {
  requireSync()
  const { ownerId } = await requireOwner(event)
  await pipeSyncEvents(event, ownerId, useSyncNotifier())
})
