import { decodeHlc, DEFAULT_MAX_DRIFT_MS } from '#shared/sync/hlc'
import { MAX_PUSH_BYTES } from '#shared/sync/sync-limits'
import { syncPushSchema } from '#shared/sync/sync-protocol'
import type { SyncPushResult } from '#shared/sync/sync-protocol'
import { requireOwner } from '../../utils/accounts/request-owner'
import { readBoundedJson } from '../../utils/http/read-bounded-body'
import { requireSync } from '../../utils/sync/require-sync'
import { SyncQuotaError } from '../../utils/sync/sync-quota-error'
import { useSyncNotifier, useSyncStore } from '../../utils/sync/use-sync'
import { useSyncBlobStore } from '../../utils/sync/use-sync-blobs'
import { codedError, userError } from '../../utils/http/user-error'

/**
 * POST /api/sync/push `{ changes }`: stores the owner's changes that win over what the server holds (a change sent
 * twice counts once) and tells the owner's other devices. The body is checked whole first: one bad change refuses
 * the push and nothing is stored.
 */
export default defineEventHandler(async (event): Promise<SyncPushResult> => {
  requireSync()
  const { ownerId } = await requireOwner(event)
  const parsed = syncPushSchema.safeParse(await readBoundedJson(event, MAX_PUSH_BYTES))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw userError(400, 'Bad Request', 'server.sync.invalidPush', { path: issue?.path.join('.') || 'body', reason: String(issue?.message) })
  }
  // A clock far in the future would win every later write of the owner's other devices.
  const latest = Date.now() + DEFAULT_MAX_DRIFT_MS
  const ahead = parsed.data.changes.find(change => decodeHlc(change.hlc)!.wallMs > latest)
  if (ahead) throw userError(400, 'Bad Request', 'server.sync.clockAhead', { kind: ahead.kind, id: ahead.id, minutes: DEFAULT_MAX_DRIFT_MS / 60_000 })
  try {
    const outcome = await useSyncStore().push(ownerId, parsed.data.changes)
    // A deleted message (a removed branch or chat) takes its files with it; a message tombstone always wins.
    await useSyncBlobStore().deleteOfMessages(ownerId, parsed.data.changes.filter(change => change.kind === 'message' && change.deleted).map(change => change.id))
    if (outcome.applied > 0) {
      await useSyncNotifier().publish(ownerId, outcome.cursor).catch((error: Error) => console.error(`[sync] could not tell other devices: ${error.message}`))
    }
    return outcome
  }
  catch (error) {
    if (!(error instanceof SyncQuotaError)) throw error
    throw codedError(error.limit === 'bytes' ? 413 : 429, error.limit === 'bytes' ? 'Payload Too Large' : 'Too Many Requests', error.text)
  }
})
