// redis-server with an append-only file in a temp dir, which the soak stops (SIGTERM or SIGKILL) and starts again on
// the same port and dir, so the AOF brings the jobs back. Stopped by pid, never by name.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../tests/e2e/support/app-instance'
import { waitUntilReady } from '../../tests/unit/helpers/redis-server'

export interface AofRedis {
  url: string
  /** Stops the server with `signal` and starts it again on the same port and dir once it has exited. */
  restart: (signal: 'SIGTERM' | 'SIGKILL', downMs: number) => Promise<void>
  /** Stops it for good and removes its dir. */
  stop: () => Promise<void>
}

const BINARY = process.env.REDIS_SERVER_PATH ?? 'redis-server'

function launch(port: number, dir: string): Promise<ChildProcess> {
  // `appendfsync always`: a SIGKILL loses nothing acknowledged, so what the soak checks is the app, not the fsync policy.
  const child = spawn(BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
  return waitUntilReady(child).then(() => child)
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise(resolve => child.once('exit', () => resolve()))
}

/** Starts redis-server with AOF on a free loopback port. */
export async function startAofRedis(): Promise<AofRedis> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'plugboard-soak-redis-'))
  let child = await launch(port, dir)
  return {
    url: `redis://127.0.0.1:${port}`,
    async restart(signal, downMs) {
      process.kill(child.pid!, signal)
      await exited(child)
      await new Promise(resolve => setTimeout(resolve, downMs))
      child = await launch(port, dir)
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGTERM')
      await exited(child)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
