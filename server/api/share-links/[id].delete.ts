import { requireOwner } from '../../utils/accounts/request-owner'
import { useShareLinkStore } from '../../utils/share/use-share-link-store'
import { userError } from '../../utils/http/user-error'

/** DELETE /api/share-links/:id: revokes the owner's link; anybody else's, or one already revoked, answers 404. */
export default defineEventHandler(async (event) => {
  const { ownerId } = await requireOwner(event)
  const revoked = await (await useShareLinkStore()).revoke(ownerId, getRouterParam(event, 'id') ?? '')
  if (!revoked) throw userError(404, 'Not Found', 'server.share.noSuchLink')
  setResponseStatus(event, 204)
  return null
})
