import { and, asc, count, eq, gt, isNull, lt, sql } from 'drizzle-orm'
import { accounts, invites, passkeys, webauthnChallenges } from '../database/account-tables'
import type { ChallengePurpose } from '../database/account-tables'
import { workflows } from '../database/database-schema'
import type { Database } from '../database/open-database'

export type AccountRole = 'admin' | 'member'
export interface Account { id: string, name: string, role: AccountRole, createdAt: number }
export interface Passkey { credentialId: string, accountId: string, publicKey: string, counter: number, transports: string[], createdAt: number }
export interface Invite { id: string, createdBy: string, createdAt: number, expiresAt: number, usedAt: number | null }
export interface Challenge { attemptId: string, challenge: string, purpose: ChallengePurpose, accountId: string, expiresAt: number }

/** Why a sign-up was refused, in words the sign-in page shows. */
export class AccountRefusal extends Error {}

/**
 * Accounts, their passkeys, invites and WebAuthn challenges in the server's database. Every write that checks
 * something first (no account yet, an unused invite) does both in one transaction, so two instances racing cannot
 * make two admins or use one invite twice.
 */
export function createAccountStore(db: Database) {
  return {
    async countAccounts(): Promise<number> {
      const [row] = await db.select({ total: count() }).from(accounts)
      return Number(row?.total ?? 0)
    },
    async getAccount(id: string): Promise<Account | undefined> {
      const [row] = await db.select().from(accounts).where(eq(accounts.id, id))
      return row
    },
    listAccounts(): Promise<Account[]> {
      return db.select().from(accounts).orderBy(asc(accounts.createdAt), asc(accounts.id))
    },
    /** The first account, made admin; refused when any account exists already. */
    async createFirstAdmin(account: Omit<Account, 'role'>, passkey: Omit<Passkey, 'accountId'>): Promise<Account> {
      return db.transaction(async (transaction) => {
        await transaction.execute(sql`select pg_advisory_xact_lock(hashtextextended('accounts:first-admin', 0))`)
        const [held] = await transaction.select({ total: count() }).from(accounts)
        if (Number(held?.total ?? 0) > 0) throw new AccountRefusal('This server has an admin already: ask them for an invite link.')
        const created: Account = { ...account, role: 'admin' }
        await transaction.insert(accounts).values(created)
        await transaction.insert(passkeys).values({ ...passkey, accountId: created.id })
        return created
      })
    },
    /** A member account through the invite whose token hashes to `tokenHash`; the invite is used up in the same transaction. */
    async createFromInvite(tokenHash: string, account: Omit<Account, 'role'>, passkey: Omit<Passkey, 'accountId'>, now: number): Promise<Account> {
      return db.transaction(async (transaction) => {
        const [used] = await transaction.update(invites)
          .set({ usedAt: now, usedBy: account.id })
          .where(and(eq(invites.tokenHash, tokenHash), isNull(invites.usedAt), gt(invites.expiresAt, now)))
          .returning({ id: invites.id })
        if (!used) throw new AccountRefusal('This invite link is not valid: it was used, it expired or it was never made. Ask for a new one.')
        const created: Account = { ...account, role: 'member' }
        await transaction.insert(accounts).values(created)
        await transaction.insert(passkeys).values({ ...passkey, accountId: created.id })
        return created
      })
    },
    /** Removes an account: its passkeys and invites go with it (foreign keys), and so do the rows it owns. */
    async removeAccount(id: string): Promise<boolean> {
      return db.transaction(async (transaction) => {
        await transaction.delete(workflows).where(eq(workflows.ownerId, id))
        const removed = await transaction.delete(accounts).where(eq(accounts.id, id)).returning({ id: accounts.id })
        return removed.length > 0
      })
    },

    async addPasskey(passkey: Passkey): Promise<void> {
      await db.insert(passkeys).values(passkey)
    },
    async getPasskey(credentialId: string): Promise<Passkey | undefined> {
      const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId))
      return row
    },
    listPasskeys(accountId: string): Promise<Passkey[]> {
      return db.select().from(passkeys).where(eq(passkeys.accountId, accountId)).orderBy(asc(passkeys.createdAt))
    },
    async updateCounter(credentialId: string, counter: number): Promise<void> {
      await db.update(passkeys).set({ counter }).where(eq(passkeys.credentialId, credentialId))
    },

    async createInvite(invite: Invite & { tokenHash: string }): Promise<void> {
      await db.insert(invites).values(invite)
    },
    /** Whether an invite with this token hash can still be used. */
    async inviteUsable(tokenHash: string, now: number): Promise<boolean> {
      const [row] = await db.select({ id: invites.id }).from(invites)
        .where(and(eq(invites.tokenHash, tokenHash), isNull(invites.usedAt), gt(invites.expiresAt, now)))
      return !!row
    },

    /** Stores an attempt's challenge, sweeping expired ones so the table stays small. */
    async putChallenge(challenge: Challenge, now: number): Promise<void> {
      await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now))
      await db.insert(webauthnChallenges).values(challenge)
    },
    /** The challenge of an attempt, deleted as it is read: a second read (a replay) finds nothing. Expired ones count as missing. */
    async takeChallenge(attemptId: string, purpose: ChallengePurpose, now: number): Promise<Challenge | undefined> {
      const [row] = await db.delete(webauthnChallenges)
        .where(and(eq(webauthnChallenges.attemptId, attemptId), eq(webauthnChallenges.purpose, purpose)))
        .returning()
      return row && row.expiresAt > now ? row : undefined
    },
  }
}

export type AccountStore = ReturnType<typeof createAccountStore>
