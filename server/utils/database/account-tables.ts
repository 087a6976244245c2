import { bigint, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core'

/**
 * The tables of accounts with passkeys (`NUXT_ACCOUNTS=passkeys`, migration 0001). An account's id is the `owner_id`
 * of every row it owns elsewhere. A change here needs a new migration (never an edit of an applied one).
 */
export const accounts = pgTable('accounts', {
  id: text('id').primaryKey(),
  /** The name the person gave at sign-up, shown in Settings and to the admin. */
  name: text('name').notNull(),
  role: text('role').$type<'admin' | 'member'>().notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
})

/** One row per WebAuthn credential; an account may have several (one per device, or synced ones). */
export const passkeys = pgTable('passkeys', {
  credentialId: text('credential_id').primaryKey(),
  accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  /** The COSE public key, base64url. */
  publicKey: text('public_key').notNull(),
  counter: bigint('counter', { mode: 'number' }).notNull(),
  transports: jsonb('transports').$type<string[]>().notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
}, table => [index('passkeys_account_idx').on(table.accountId)])

/** Invite links: only the SHA-256 of the token is kept, so a database leak does not hand out accounts. */
export const invites = pgTable('invites', {
  id: text('id').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  createdBy: text('created_by').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
  usedAt: bigint('used_at', { mode: 'number' }),
  usedBy: text('used_by'),
})

/**
 * WebAuthn challenges between the options and the verification of one attempt: deleted when read, so each is used
 * once, on whichever instance the answer lands.
 */
export const webauthnChallenges = pgTable('webauthn_challenges', {
  attemptId: text('attempt_id').primaryKey(),
  challenge: text('challenge').notNull(),
  purpose: text('purpose').$type<ChallengePurpose>().notNull(),
  /** The account the attempt is for: a fresh id for a sign-up, the signed-in account for "Add a passkey", '' for a sign-in. */
  accountId: text('account_id').notNull(),
  expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
}, table => [index('webauthn_challenges_expires_idx').on(table.expiresAt)])

export type ChallengePurpose = 'sign-up' | 'add-passkey' | 'sign-in'
