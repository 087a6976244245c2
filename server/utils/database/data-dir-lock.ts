import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Thrown when another live process holds the embedded database's folder. */
export class DataDirLockedError extends Error {
  constructor(readonly dir: string, readonly pid: number) {
    super(`Another Plugboard process (pid ${pid}) is using the embedded database in ${dir}. PGlite is one process's database: give each instance its own folder (NUXT_DATABASE_DIR), or share a Postgres between them (NUXT_DATABASE_URL).`)
    this.name = 'DataDirLockedError'
  }
}

/**
 * Claims `dir` for this process with a pid file, because two processes writing one PGlite folder corrupt it. A
 * claim whose process is gone (a crash) is taken over; so is one naming our own pid (a container restarted with
 * the same pid). Returns the release.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'plugboard.pid')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' })
      return () => rmSync(file, { force: true })
    }
    catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = Number.parseInt(readPid(file), 10)
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) throw new DataDirLockedError(dir, holder)
      rmSync(file, { force: true })
    }
  }
  throw new Error(`Could not claim the embedded database folder ${dir}.`)
}

function readPid(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim()
  }
  catch {
    return ''
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  }
  catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
