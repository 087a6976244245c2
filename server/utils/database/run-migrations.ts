import type { MigrationMeta } from 'drizzle-orm/migrator'
import { PgDialect } from 'drizzle-orm/pg-core'
import type { PgDatabase, PgQueryResultHKT, PgSession } from 'drizzle-orm/pg-core'

/**
 * Applies the migrations not yet applied, in one transaction, recording them in Drizzle's own journal table
 * (`drizzle.__drizzle_migrations`), exactly as drizzle-orm's `migrate()` does. Callers that share a database with
 * other instances hold `MIGRATION_LOCK_KEY` first (`open-database.ts`).
 */
export async function runMigrations<TSchema extends Record<string, unknown>>(db: PgDatabase<PgQueryResultHKT, TSchema>, migrations: MigrationMeta[]): Promise<void> {
  // The migrator runs raw SQL only: the session's schema typing does not matter to it.
  await new PgDialect().migrate(migrations, db._.session as unknown as PgSession, { migrationsFolder: '', migrationsSchema: 'drizzle', migrationsTable: '__drizzle_migrations' })
}

/**
 * The key of the session-level advisory lock instances on one Postgres take turns on while they migrate (any number
 * will do; it only has to be the same for every instance of the app).
 */
export const MIGRATION_LOCK_KEY = 0x706C7567
