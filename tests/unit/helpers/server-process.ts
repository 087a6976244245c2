// A real server (Redis, Postgres) that a test file starts on a free loopback port and stops by its pid: the port
// retry, the wait for its "ready" line and the stop are the same whichever server it is.
import type { ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'

/** A port nobody listens on right now (loopback). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  await new Promise(done => server.close(done))
  return port
}

/** Starts on a free port, trying another (up to five) if the one picked was taken before the server bound it. */
export async function startOnFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  let lastError: unknown
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await start(await freePort())
    }
    catch (error) {
      lastError = error
    }
  }
  throw lastError
}

/**
 * Resolves once the server writes `readyLine` on `stream`; rejects with the tail of its output if it exits first.
 * Both streams are drained after, so a full pipe never stalls the server.
 */
export function waitForReadyLine(child: ChildProcess, name: string, stream: 'stdout' | 'stderr', readyLine: string): Promise<void> {
  const watched = child[stream]!
  const other = stream === 'stdout' ? child.stderr! : child.stdout!
  return new Promise((resolve, reject) => {
    let output = ''
    const onData = (data: Buffer) => {
      output += data.toString()
      if (output.includes(readyLine)) {
        watched.off('data', onData)
        watched.resume()
        resolve()
      }
    }
    watched.on('data', onData)
    other.resume()
    child.once('exit', code => reject(new Error(`${name} exited (${code}) before it was ready:\n${output.slice(-2000)}`)))
    child.once('error', reject)
  })
}

/** Sends `signal` to the server's pid and waits for it to exit, killing it if it lingers past `graceMs`. */
export async function stopByPid(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  // No pid: it never started (spawn failed). An exit code or signal: it has exited already.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>(done => child.once('exit', () => done()))
  process.kill(child.pid!, signal)
  const lingering = setTimeout(() => child.kill('SIGKILL'), graceMs)
  await exited
  clearTimeout(lingering)
}
