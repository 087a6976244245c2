import type { SharedChat } from '#shared/share/share-snapshot'
import { hashShareToken, isShareTokenShape } from './share-token'
import { useShareLinkStore } from './use-share-link-store'
import { SERVER_MESSAGES } from '#shared/errors/server-messages'

/** What a link's token opens, as an answer: the chat, or 404 (never was) / 410 (revoked) with a plain sentence. */
export async function openSharedChat(token: string): Promise<{ ok: true, chat: SharedChat } | { ok: false, statusCode: 404 | 410, code: 'server.share.missing' | 'server.share.revoked', message: string }> {
  if (!isShareTokenShape(token)) return { ok: false, statusCode: 404, code: 'server.share.missing', message: SERVER_MESSAGES['server.share.missing'] }
  const read = await (await useShareLinkStore()).read(hashShareToken(token))
  if (read.state === 'shared') return { ok: true, chat: { snapshot: read.snapshot, createdAt: read.createdAt } }
  if (read.state === 'revoked') return { ok: false, statusCode: 410, code: 'server.share.revoked', message: SERVER_MESSAGES['server.share.revoked'] }
  return { ok: false, statusCode: 404, code: 'server.share.missing', message: SERVER_MESSAGES['server.share.missing'] }
}
