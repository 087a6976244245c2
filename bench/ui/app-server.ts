import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'

/** A built Plugboard (`.output`) running as its own process. */
export interface BenchApp {
  url: string
  stop: () => Promise<void>
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => done(port))
    })
  })
}

/**
 * Starts `<outputDir>/server/index.mjs` on a free loopback port with `env`, in its own working folder under
 * /tmp (the server keeps its session secret in `.data/` there, never in the tree it was built in).
 */
export async function startBenchApp(outputDir: string, env: Record<string, string>, label: string): Promise<BenchApp> {
  const port = await freePort()
  const cwd = resolve('/tmp', `plugboard-bench-ui-${label}-${process.pid}`)
  mkdirSync(cwd, { recursive: true })
  const child = spawn(process.execPath, [resolve(outputDir, 'server/index.mjs')], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NUXT_RATE_LIMIT_PER_MINUTE: '100000', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  child.stdout!.on('data', (data: Buffer) => { log += data.toString() })
  child.stderr!.on('data', (data: Buffer) => { log += data.toString() })
  const url = `http://127.0.0.1:${port}`
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`${label} exited with ${child.exitCode}:\n${log}`)
    if (attempt > 300) throw new Error(`${label} did not start:\n${log}`)
    const up = await fetch(`${url}/api/auth/status`).then(response => response.status < 500, () => false)
    if (up) break
    await new Promise(done => setTimeout(done, 100))
  }
  return {
    url,
    stop: () => new Promise<void>((done) => {
      if (child.exitCode !== null) return done()
      child.once('exit', () => done())
      process.kill(child.pid!, 'SIGTERM')
    }),
  }
}
