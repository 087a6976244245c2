// The benches that need Redis start their own redis-server (tests/unit/helpers/redis-server.ts). On a fresh machine
// it is missing: installed as `npm test` does (Debian's package, when we are root and have apt-get), or else the
// bench is skipped with the command to run, never a crash.
import { spawnSync } from 'node:child_process'

export type RedisServerBinary = { ok: true, path: string } | { ok: false, notice: string }

/**
 * Finds redis-server (`REDIS_SERVER_PATH`, else the PATH), installing it when it is missing and we may.
 */
export function ensureRedisServerBinary(): RedisServerBinary {
  const binary = process.env.REDIS_SERVER_PATH ?? 'redis-server'
  const found = answersVersion(binary) || (!process.env.REDIS_SERVER_PATH && installRedisServer() && answersVersion(binary))
  if (!found) {
    return {
      ok: false,
      notice: 'redis-server is not installed, so this bench is skipped. Install it with:\n\n'
        + '  sudo apt-get update && sudo apt-get install -y redis-server\n\n'
        + `or set REDIS_SERVER_PATH to a redis-server binary (now: ${process.env.REDIS_SERVER_PATH ?? 'not set'}), then run it again. `
        + 'It need not run: the bench starts its own.',
    }
  }
  return { ok: true, path: binary }
}

function answersVersion(binary: string): boolean {
  const probe = spawnSync(binary, ['--version'], { encoding: 'utf8' })
  return !probe.error && probe.status === 0
}

/** Debian's package, as scripts/test.mjs installs it; false when we cannot (not root, no apt-get) or it failed. */
function installRedisServer(): boolean {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (!isRoot || spawnSync('apt-get', ['--version']).status !== 0) return false
  console.log('redis-server is missing: installing Debian\'s redis-server package...')
  const options = { stdio: 'inherit' as const, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }
  if (spawnSync('apt-get', ['update'], options).status !== 0) return false
  return spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server'], options).status === 0
}
