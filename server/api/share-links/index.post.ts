import { requireOwner } from '../../utils/accounts/request-owner'
import { readShareSnapshot } from '../../utils/share/read-share-snapshot'
import { MAX_SHARE_LINKS_PER_OWNER } from '../../utils/share/share-limits'
import { hashShareToken, newShareToken } from '../../utils/share/share-token'
import { useShareLinkStore } from '../../utils/share/use-share-link-store'
import { SHARED_VIEW_PREFIX } from '#shared/share/share-snapshot'
import type { CreatedShareLink } from '#shared/share/share-snapshot'
import { userError } from '../../utils/http/user-error'

/**
 * POST /api/share-links `{ snapshot }`: stores a read-only snapshot of a chat and answers its link (201). The
 * token is in this answer only: the server keeps its hash.
 */
export default defineEventHandler(async (event): Promise<CreatedShareLink> => {
  const { ownerId } = await requireOwner(event)
  const { snapshot, bytes } = await readShareSnapshot(event)
  const token = newShareToken()
  const store = await useShareLinkStore()
  const created = await store.create({ ownerId, tokenHash: hashShareToken(token), snapshot, bytes, createdAt: Date.now() }, MAX_SHARE_LINKS_PER_OWNER)
  if (!created) {
    throw userError(429, 'Too Many Requests', 'server.share.tooMany', { max: MAX_SHARE_LINKS_PER_OWNER })
  }
  setResponseStatus(event, 201)
  return { ...created, token, path: `${SHARED_VIEW_PREFIX}${token}` }
})
