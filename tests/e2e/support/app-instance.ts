// Starts the built app (.output) as its own process with its own environment, on a free loopback port, and stops
// it by pid: for tests that need a server configured differently from playwright.config's (password mode, a tiny
// rate limit, a hostile upstream) or that read the server's memory.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { instanceDatabaseDir } from './instance-database'

export interface AppInstance {
  url: string
  pid: number
  /** The server's resident memory (VmRSS), in MB. */
  residentMb: () => number
  /** A fetch that carries the session cookie the app's page handed out (as the app's own page would). */
  fetchWithSession: (path: string, init?: RequestInit) => Promise<Response>
  cookie: string
  /** Everything the server wrote to stdout and stderr so far. */
  output: () => string
  stop: () => Promise<void>
}

/** A free loopback port (the OS picks it; a race with another process is possible but harmless in tests). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`The app exited with ${child.exitCode}:\n${output()}`)
    try {
      const response = await fetch(`${url}/api/auth/status`)
      if (response.status < 500) return
    }
    catch {}
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  throw new Error(`The app did not start at ${url}:\n${output()}`)
}

/**
 * Starts `node .output/server/index.mjs` with `env` added to a clean environment, on `options.port` (to restart an
 * instance where a page already points) or a free port. `options.server` starts another build's server instead (a
 * bench comparing two builds side by side).
 */
export async function startApp(env: Record<string, string> = {}, options: { port?: number, server?: string } = {}): Promise<AppInstance> {
  const port = options.port ?? await freePort()
  // The embedded database is one process's own: unless the spec names a folder (or a Postgres), a fresh one.
  const database = env.NUXT_DATABASE_DIR || env.NUXT_DATABASE_URL ? undefined : await instanceDatabaseDir()
  const child = spawn(process.execPath, [options.server ?? '.output/server/index.mjs'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NUXT_OPENROUTER_API_KEY: '', NUXT_RATE_LIMIT_PER_MINUTE: '1000', ...(database ? { NUXT_DATABASE_DIR: database.dir } : {}), ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.once('exit', () => database?.remove())
  let log = ''
  const onData = (data: Buffer) => {
    log += data.toString()
  }
  child.stdout!.on('data', onData)
  child.stderr!.on('data', onData)
  const url = `http://127.0.0.1:${port}`
  await waitUntilUp(url, child, () => log)

  // The app's page hands out the session, as it does to a browser.
  const page = await fetch(`${url}/`)
  const cookie = (page.headers.getSetCookie?.() ?? []).map(item => item.split(';')[0]).join('; ')
  await page.text()

  return {
    url,
    pid: child.pid!,
    cookie,
    output: () => log,
    residentMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
    },
    fetchWithSession: (path, init = {}) => fetch(`${url}${path}`, { ...init, headers: { cookie, ...(init.headers as Record<string, string> | undefined) } }),
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once('exit', () => resolve())
      process.kill(child.pid!, 'SIGTERM')
    }),
  }
}
