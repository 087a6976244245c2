import { randomUUID } from 'node:crypto'
import { INVITE_TTL_MS, inviteTokenHash, newInviteToken } from '../../utils/accounts/passkey-ceremony'
import { passkeySiteOrigin } from '../../utils/accounts/passkey-origin'
import { requireAdmin } from '../../utils/accounts/require-admin'
import { useAccountStore } from '../../utils/accounts/use-account-store'

/** POST /api/accounts/invites (admin): a single-use invite link that expires; only its token's hash is stored. */
export default defineEventHandler(async (event) => {
  const admin = await requireAdmin(event)
  const token = newInviteToken()
  const now = Date.now()
  const expiresAt = now + INVITE_TTL_MS
  await (await useAccountStore()).createInvite({ id: randomUUID(), tokenHash: inviteTokenHash(token), createdBy: admin.accountId, createdAt: now, expiresAt, usedAt: null })
  return { url: `${passkeySiteOrigin(event).origin}/invite/${token}`, expiresAt }
})
