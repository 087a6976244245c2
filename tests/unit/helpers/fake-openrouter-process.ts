import { spawn } from 'node:child_process'
import { resolve } from 'node:path'

/** A chat request the fake upstream received (GET /__requests). */
export interface RecordedRequest {
  method: string
  path: string
  headers: Record<string, string>
  body: Record<string, unknown>
}

/**
 * tests/fixtures/fake-openrouter/server.mjs in its own process on a free port, recording every chat request it is
 * sent: `received()` lists them, `clear()` forgets them, `stop()` ends the process. `chunkDelayMs` is the pause
 * between the events of a streamed reply.
 */
export async function startFakeOpenRouter({ chunkDelayMs = 1 }: { chunkDelayMs?: number } = {}) {
  const child = spawn(process.execPath, [resolve(process.cwd(), 'tests/fixtures/fake-openrouter/server.mjs')], {
    env: { ...process.env, PORT: '0', FAKE_OPENROUTER_DELAY_MS: String(chunkDelayMs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const origin = await new Promise<string>((done, reject) => {
    let output = ''
    child.stdout!.on('data', (data: Buffer) => {
      output += data.toString()
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match) done(match[1]!)
    })
    child.once('exit', code => reject(new Error(`fake-openrouter exited with ${code}`)))
  })
  return {
    origin,
    baseUrl: `${origin}/api/v1`,
    received: async () => await (await fetch(`${origin}/__requests`)).json() as RecordedRequest[],
    clear: async () => void await fetch(`${origin}/__requests`, { method: 'DELETE' }),
    stop: () => void child.kill('SIGTERM'),
  }
}
