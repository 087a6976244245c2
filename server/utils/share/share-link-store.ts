import { randomUUID } from 'node:crypto'
import { and, count, desc, eq, isNotNull, isNull, notInArray, sql } from 'drizzle-orm'
import type { ShareLinkSummary, ShareSnapshot } from '#shared/share/share-snapshot'
import type { Database } from '../database/open-database'
import { shareLinks } from '../database/database-schema'
import { MAX_REVOKED_SHARE_LINKS_PER_OWNER } from './share-limits'

/** What a token opens: the snapshot, a revoked link, or nothing. */
export type SharedRead
  = | { state: 'shared', snapshot: ShareSnapshot, createdAt: number }
    | { state: 'revoked', revokedAt: number }
    | { state: 'missing' }

export interface NewShareLink {
  ownerId: string
  tokenHash: string
  snapshot: ShareSnapshot
  bytes: number
  createdAt: number
}

export interface ShareLinkStore {
  /** Stores a link unless the owner already has `limit` working ones (then undefined, nothing stored). */
  create: (link: NewShareLink, limit: number) => Promise<ShareLinkSummary | undefined>
  /** The owner's links, newest first, revoked ones included. */
  list: (ownerId: string) => Promise<ShareLinkSummary[]>
  /** Revokes the owner's link `id` (its snapshot is dropped); false when the owner has no such working link. */
  revoke: (ownerId: string, id: string) => Promise<boolean>
  /** What the token's hash opens. */
  read: (tokenHash: string) => Promise<SharedRead>
}

type ShareLinkRow = typeof shareLinks.$inferSelect

function toSummary(row: Pick<ShareLinkRow, 'id' | 'title' | 'createdAt' | 'revokedAt' | 'bytes'>): ShareLinkSummary {
  return { id: row.id, title: row.title, createdAt: row.createdAt, bytes: row.bytes, ...(row.revokedAt !== null && { revokedAt: row.revokedAt }) }
}

const summaryColumns = { id: shareLinks.id, title: shareLinks.title, createdAt: shareLinks.createdAt, revokedAt: shareLinks.revokedAt, bytes: shareLinks.bytes }

/**
 * Share links in the server's database (`share_links`). `create` counts and inserts under a per-owner lock, so
 * the cap holds however many requests or instances share at once, and forgets the owner's oldest revoked links
 * past their own cap in the same transaction, so nothing grows without bound.
 */
export function createShareLinkStore(db: Database | PromiseLike<Database>): ShareLinkStore {
  return {
    async create(link, limit) {
      return (await db).transaction(async (transaction) => {
        await transaction.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`share_links:${link.ownerId}`}, 0))`)
        const [held] = await transaction.select({ total: count() }).from(shareLinks).where(and(eq(shareLinks.ownerId, link.ownerId), isNull(shareLinks.revokedAt)))
        if ((held?.total ?? 0) >= limit) return undefined
        const keptRevoked = transaction.select({ id: shareLinks.id }).from(shareLinks)
          .where(and(eq(shareLinks.ownerId, link.ownerId), isNotNull(shareLinks.revokedAt)))
          .orderBy(desc(shareLinks.revokedAt), desc(shareLinks.id))
          .limit(MAX_REVOKED_SHARE_LINKS_PER_OWNER)
        await transaction.delete(shareLinks).where(and(eq(shareLinks.ownerId, link.ownerId), isNotNull(shareLinks.revokedAt), notInArray(shareLinks.id, keptRevoked)))
        const row: ShareLinkRow = { id: randomUUID(), ownerId: link.ownerId, tokenHash: link.tokenHash, title: link.snapshot.title, snapshot: link.snapshot, bytes: link.bytes, createdAt: link.createdAt, revokedAt: null }
        await transaction.insert(shareLinks).values(row)
        return toSummary(row)
      })
    },
    async list(ownerId) {
      const rows = await (await db).select(summaryColumns).from(shareLinks).where(eq(shareLinks.ownerId, ownerId)).orderBy(desc(shareLinks.createdAt), desc(shareLinks.id))
      return rows.map(toSummary)
    },
    async revoke(ownerId, id) {
      const revoked = await (await db).update(shareLinks)
        .set({ revokedAt: Date.now(), snapshot: null })
        .where(and(eq(shareLinks.id, id), eq(shareLinks.ownerId, ownerId), isNull(shareLinks.revokedAt)))
        .returning({ id: shareLinks.id })
      return revoked.length > 0
    },
    async read(tokenHash) {
      const [row] = await (await db).select({ snapshot: shareLinks.snapshot, createdAt: shareLinks.createdAt, revokedAt: shareLinks.revokedAt })
        .from(shareLinks).where(eq(shareLinks.tokenHash, tokenHash))
      if (!row) return { state: 'missing' }
      if (row.revokedAt !== null || !row.snapshot) return { state: 'revoked', revokedAt: row.revokedAt ?? row.createdAt }
      return { state: 'shared', snapshot: row.snapshot, createdAt: row.createdAt }
    },
  }
}
