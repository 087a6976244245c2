// Each app instance a spec starts gets an embedded database folder of its own (PGlite's folder is one process's),
// copied from a template initialised once per checkout: initialising one costs PGlite's initdb (tens of seconds on
// a loaded machine), copying one costs a moment.
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { PGlite } from '@electric-sql/pglite'

const TEMPLATE_DIR = resolve('.data/e2e-pglite-template')

/** The initialised template folder, made on the first call of a checkout (Playwright's global setup). */
export async function ensureDatabaseTemplate(): Promise<string> {
  if (existsSync(join(TEMPLATE_DIR, 'PG_VERSION'))) return TEMPLATE_DIR
  // Built aside and renamed into place, so a worker never copies a half-written template.
  const building = `${TEMPLATE_DIR}.${process.pid}.${Date.now()}`
  const database = await PGlite.create(building)
  await database.close()
  try {
    renameSync(building, TEMPLATE_DIR)
  }
  catch {
    // Another worker's template got there first.
    rmSync(building, { recursive: true, force: true })
  }
  return TEMPLATE_DIR
}

/** A fresh, initialised database folder for one instance (`NUXT_DATABASE_DIR`) and its removal. */
export async function instanceDatabaseDir(): Promise<{ dir: string, remove: () => void }> {
  const template = await ensureDatabaseTemplate()
  const parent = mkdtempSync(join(tmpdir(), 'plugboard-e2e-db-'))
  const dir = join(parent, 'pglite')
  cpSync(template, dir, { recursive: true })
  return { dir, remove: () => rmSync(parent, { recursive: true, force: true }) }
}
