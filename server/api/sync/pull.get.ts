import { z } from 'zod'
import { MAX_CHANGES_PER_PULL } from '#shared/sync/sync-limits'
import type { SyncPullResult } from '#shared/sync/sync-protocol'
import { requireOwner } from '../../utils/accounts/request-owner'
import { requireSync } from '../../utils/sync/require-sync'
import { useSyncStore } from '../../utils/sync/use-sync'
import { userError } from '../../utils/http/user-error'

const querySchema = z.object({
  cursor: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_CHANGES_PER_PULL).default(MAX_CHANGES_PER_PULL),
})

/** GET /api/sync/pull?cursor=&limit=: the owner's changes after `cursor`, oldest first, a bounded page at a time. */
export default defineEventHandler(async (event): Promise<SyncPullResult> => {
  requireSync()
  const { ownerId } = await requireOwner(event)
  const query = querySchema.safeParse(getQuery(event))
  if (!query.success) throw userError(400, 'Bad Request', 'server.sync.pullQuery', { max: MAX_CHANGES_PER_PULL })
  return useSyncStore().pull(ownerId, query.data.cursor, query.data.limit)
})
