import { z } from 'zod'
import { isHlc } from './hlc'
import { MAX_CHANGES_PER_PUSH, MAX_ID_LENGTH, MAX_RECORD_BYTES } from './sync-limits'
import { SYNC_KINDS } from './sync-record'
import type { SyncedChange } from './sync-record'

/** One change as a push sends it; an owner field or any other extra key is dropped, never trusted. */
export const syncChangeSchema = z.object({
  kind: z.enum(SYNC_KINDS),
  id: z.string().min(1).max(MAX_ID_LENGTH).regex(/^[\w.:-]+$/, 'An id is letters, digits and _ . : -'),
  hlc: z.string().refine(isHlc, 'Not a hybrid logical clock'),
  deleted: z.boolean(),
  body: z.record(z.string(), z.unknown()).nullable(),
}).superRefine((change, context) => {
  if (change.deleted !== (change.body === null)) {
    context.addIssue({ code: 'custom', message: 'A tombstone has no body, and only a tombstone has none.' })
    return
  }
  if (change.body && JSON.stringify(change.body).length > MAX_RECORD_BYTES) {
    context.addIssue({ code: 'custom', message: `A record's body is at most ${MAX_RECORD_BYTES} bytes of JSON.` })
  }
  if (change.body && change.body.id !== change.id) context.addIssue({ code: 'custom', message: 'A body\'s id is the change\'s id.' })
})

/** POST /api/sync/push. */
export const syncPushSchema = z.object({
  changes: z.array(syncChangeSchema).min(1).max(MAX_CHANGES_PER_PUSH),
})

export type SyncPushBody = z.infer<typeof syncPushSchema>

/** What POST /api/sync/push answers. */
export interface SyncPushResult {
  /** Changes that won over what the server held (the others were older, or sent before). */
  applied: number
  /** The owner's latest change sequence. */
  cursor: number
}

/** What GET /api/sync/pull answers. */
export interface SyncPullResult {
  changes: SyncedChange[]
  /** Pass it as `cursor` next time. */
  cursor: number
  /** More changes wait past this page. */
  more: boolean
}
