import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { MigrationMeta } from 'drizzle-orm/migrator'

/** Reads one file of the migrations folder by its relative path (`meta/_journal.json`, `0000_x.sql`); null when missing. */
export type MigrationFileReader = (path: string) => Promise<string | null>

interface JournalEntry { tag: string, when: number, breakpoints: boolean }

/**
 * The SQL migrations in Drizzle's folder format (`meta/_journal.json` + one `<tag>.sql` per entry, statements split
 * by `--> statement-breakpoint`), read the way drizzle-orm's `readMigrationFiles` reads them (same hash, same
 * timestamps) but through `read`, so the built server can take them from its bundled assets instead of the disk.
 */
export async function loadMigrations(read: MigrationFileReader): Promise<MigrationMeta[]> {
  const journalText = await read('meta/_journal.json')
  if (journalText === null) throw new Error('The database migrations have no meta/_journal.json.')
  const journal = JSON.parse(journalText) as { entries?: JournalEntry[] }
  const migrations: MigrationMeta[] = []
  for (const entry of journal.entries ?? []) {
    const query = await read(`${entry.tag}.sql`)
    if (query === null) throw new Error(`The database migration ${entry.tag}.sql is missing.`)
    migrations.push({
      sql: query.split('--> statement-breakpoint'),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: createHash('sha256').update(query).digest('hex'),
    })
  }
  return migrations
}

/** The migrations folder in the sources, beside this file (tests and tools; the built server reads its assets). */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url))

/** A reader of a folder on disk. */
export function readMigrationsFromDir(dir: string = MIGRATIONS_DIR): MigrationFileReader {
  return async (path) => {
    try {
      return await readFile(join(dir, path), 'utf8')
    }
    catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
  }
}
