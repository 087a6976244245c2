import type { ShareSnapshot } from './share-snapshot'

/**
 * The caps, paths and answers of shared chats, apart from the snapshot's zod schema (`share-snapshot.ts`): the app's
 * start-up reads the path prefix, and zod must not load with it.
 */

/** Largest snapshot the server stores (its JSON, as uploaded). */
export const SHARE_SNAPSHOT_LIMIT_BYTES = 5 * 1024 * 1024

/** The body limit of `POST /api/share-links`: the snapshot with room for the body around it (`{"snapshot":…}`). */
export const SHARE_BODY_LIMIT_BYTES = SHARE_SNAPSHOT_LIMIT_BYTES + 1024

/** What a snapshot over the cap is told, by the browser before it uploads and by the server. */
export const SHARE_TOO_LARGE_MESSAGE = `This chat is too large to share: a shared chat may take at most ${SHARE_SNAPSHOT_LIMIT_BYTES / (1024 * 1024)} MB. Share a shorter branch, or one with fewer images.`

/** Most messages one snapshot holds (tool rows included). */
export const MAX_SHARED_MESSAGES = 2_000

/** Most images one message of a snapshot carries inline. */
export const MAX_SHARED_IMAGES_PER_MESSAGE = 8

/** Image types a shared page shows inline (what the composer stores after resizing). */
export const SHARED_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const

/** What the owner sees of one of their links (never the snapshot, never the secret). */
export interface ShareLinkSummary {
  id: string
  title: string
  createdAt: number
  /** Epoch ms of the revocation; absent while the link works. */
  revokedAt?: number
  bytes: number
}

/** The answer of a share: the link's id and its token, shown once (the server keeps only its hash). */
export interface CreatedShareLink extends ShareLinkSummary {
  token: string
  /** The page's path, `/s/<token>`. */
  path: string
}

/** The shared page's path prefix. */
export const SHARED_VIEW_PREFIX = '/s/'

/** The answer of `GET /api/shared/:token`. */
export interface SharedChat {
  snapshot: ShareSnapshot
  createdAt: number
}
