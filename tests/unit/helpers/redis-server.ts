// Debian's redis-server, started for a test file on a free loopback port and stopped by its pid. Nothing is
// saved to disk (`--save '' --appendonly no`), so every run starts empty.
import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, startOnFreePort, stopByPid, waitForReadyLine } from './server-process'

// Still exported here, where tests have imported it from.
export { freePort }

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string
  port: number
  pid: number
  /** Stops the server (SIGTERM, then SIGKILL if it lingers) and waits for it to exit. */
  stop: () => Promise<void>
}

const BINARY = process.env.REDIS_SERVER_PATH ?? 'redis-server'

/** Starts redis-server, retrying on another port if the one picked was taken in the meantime. */
export async function startRedisServer(): Promise<RedisServer> {
  assertInstalled()
  return startOnFreePort(startOn)
}

function assertInstalled(): void {
  const probe = spawnSync(BINARY, ['--version'], { encoding: 'utf8' })
  if (probe.error || probe.status !== 0) {
    throw new Error(`These tests need Debian's redis-server (not found as "${BINARY}"). Install it with:\n\n  sudo apt-get update && sudo apt-get install -y redis-server\n\nor set REDIS_SERVER_PATH to a redis-server binary. It need not run: the tests start their own.`)
  }
}

async function startOn(port: number): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'plugboard-redis-'))
  const child = spawn(BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
  try {
    await waitUntilReady(child)
  }
  catch (error) {
    await stopByPid(child, 'SIGKILL', 0)
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    async stop() {
      await stopByPid(child, 'SIGTERM', 5000)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Resolves once redis-server says it accepts connections; rejects with its output if it exits first. */
export function waitUntilReady(child: ChildProcess): Promise<void> {
  return waitForReadyLine(child, 'redis-server', 'stdout', 'Ready to accept connections')
}
