import { requireOwner } from '../../utils/accounts/request-owner'
import { useShareLinkStore } from '../../utils/share/use-share-link-store'

/** GET /api/share-links: the owner's shared links, newest first (titles and dates; never a snapshot or a token). */
export default defineEventHandler(async (event) => {
  const { ownerId } = await requireOwner(event)
  return { links: await (await useShareLinkStore()).list(ownerId) }
})
