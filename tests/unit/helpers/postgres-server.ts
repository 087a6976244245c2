// Debian's PostgreSQL, started for a test file on a free loopback port in a fresh temporary cluster and stopped by
// its pid. As root (containers), the server runs as the `postgres` user, since Postgres refuses to run as root.
import { spawn, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startOnFreePort, stopByPid, waitForReadyLine } from './server-process'

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string
  port: number
  pid: number
  /** Stops the server (SIGINT: fast shutdown, then SIGKILL if it lingers), waits for it and removes its cluster. */
  stop: () => Promise<void>
}

/** The folder of Debian's `initdb` and `postgres` (`/usr/lib/postgresql/<version>/bin`), or `POSTGRES_BIN_DIR`. */
export function postgresBinDir(): string | undefined {
  const chosen = process.env.POSTGRES_BIN_DIR
  if (chosen) return existsSync(join(chosen, 'postgres')) ? chosen : undefined
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).filter(name => existsSync(join(root, name, 'bin', 'postgres'))).sort((a, b) => Number(b) - Number(a))
  return versions[0] ? join(root, versions[0], 'bin') : undefined
}

/** Why the Postgres tests cannot run here, or undefined when they can. */
export function postgresMissing(): string | undefined {
  if (postgresBinDir()) return undefined
  const where = process.env.POSTGRES_BIN_DIR ? `in POSTGRES_BIN_DIR (${process.env.POSTGRES_BIN_DIR})` : 'under /usr/lib/postgresql/*/bin'
  return `These tests need Debian's PostgreSQL server binaries (initdb, postgres), not found ${where}. Install them with: sudo apt-get update && sudo apt-get install -y postgresql (it need not run: the tests start their own), or set POSTGRES_BIN_DIR to their folder.`
}

function runAs(): { uid: number, gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined
  const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim())
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim())
  if (!uid || !gid) throw new Error('Running as root, the Postgres tests need the `postgres` user that Debian\'s postgresql package creates.')
  return { uid, gid }
}

/** initdb + postgres on a free port (retried on another port if the one picked was taken meanwhile). */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = postgresBinDir()
  if (!bin) throw new Error(postgresMissing())
  const user = runAs()
  const dir = mkdtempSync(join(tmpdir(), 'plugboard-postgres-'))
  if (user) chownSync(dir, user.uid, user.gid)
  const dataDir = join(dir, 'data')
  const init = spawnSync(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], { encoding: 'utf8', ...user })
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`initdb failed:\n${init.stderr || init.stdout}`)
  }
  try {
    return await startOnFreePort(port => startOn(bin, dir, dataDir, port, user))
  }
  catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}

async function startOn(bin: string, dir: string, dataDir: string, port: number, user: { uid: number, gid: number } | undefined): Promise<PostgresServer> {
  const child = spawn(join(bin, 'postgres'), ['-D', dataDir, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'], { stdio: ['ignore', 'pipe', 'pipe'], ...user })
  try {
    await waitForReadyLine(child, 'postgres', 'stderr', 'database system is ready to accept connections')
  }
  catch (error) {
    await stopByPid(child, 'SIGKILL', 0)
    throw error
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    pid: child.pid!,
    async stop() {
      // SIGINT is Postgres' fast shutdown: it ends the open connections and exits without waiting for clients.
      await stopByPid(child, 'SIGINT', 10_000)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
