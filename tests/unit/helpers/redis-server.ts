// Debian's redis-server, started for a test file on a free loopback port and stopped by its pid. Nothing is
// saved to disk (`--save '' --appendonly no`), so every run starts empty.
import { spawn, spawnSync } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

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
  let lastError: unknown
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await startOn(await freePort())
    }
    catch (error) {
      lastError = error
    }
  }
  throw lastError
}

function assertInstalled(): void {
  const probe = spawnSync(BINARY, ['--version'], { encoding: 'utf8' })
  if (probe.error || probe.status !== 0) {
    throw new Error(`These tests need Debian's redis-server (not found as "${BINARY}"). Install it with:\n\n  sudo apt-get update && sudo apt-get install -y redis-server\n\nor set REDIS_SERVER_PATH to a redis-server binary. It need not run: the tests start their own.`)
  }
}

/** A port nobody listens on right now (loopback). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  await new Promise(done => server.close(done))
  return port
}

async function startOn(port: number): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'plugboard-redis-'))
  const child = spawn(BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<void>(done => child.once('exit', () => done()))
  try {
    await waitUntilReady(child)
  }
  catch (error) {
    child.kill('SIGKILL')
    await exited
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(child.pid!, 'SIGTERM')
        const lingering = setTimeout(() => child.kill('SIGKILL'), 5000)
        await exited
        clearTimeout(lingering)
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Resolves once redis-server says it accepts connections; rejects with its output if it exits first. */
export function waitUntilReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = ''
    const onData = (data: Buffer) => {
      output += data.toString()
      if (output.includes('Ready to accept connections')) {
        child.stdout!.off('data', onData)
        // Keep draining its output so a full pipe never stalls the server.
        child.stdout!.resume()
        resolve()
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.resume()
    child.once('exit', code => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output.slice(-2000)}`)))
    child.once('error', reject)
  })
}
