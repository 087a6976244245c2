// The sandbox keeps its word: a tool written in the app ends by its time limit whatever it does. Real Node threads
// and the real QuickJS, so the page's side is seen terminating a worker that is busy inside the engine.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createUserToolSandbox, testRunUserTool } from '~/utils/chat/user-tools/user-tool-sandbox'
import { ThreadUserToolWorker } from './helpers/quickjs'

/** Each push is one native call of QuickJS, where its interrupt handler is never consulted. */
const ALLOCATION_LOOP = 'const a = []; while (true) a.push(\'x\'.repeat(1 << 20))'
const MICROTASK_FLOOD = 'const f = () => Promise.resolve().then(f); f(); await new Promise(() => {})'

const context = () => ({ signal: new AbortController().signal, threadId: 'thread-1', callId: 'call-1', status: vi.fn(), settings: {} })

const workers: ThreadUserToolWorker[] = []

/** Warm workers (QuickJS loaded), handed out in order: the time a call takes is the call's, not a thread's start. */
async function warmWorkers(count: number) {
  const ready = Array.from({ length: count }, () => new ThreadUserToolWorker())
  workers.push(...ready)
  await Promise.all(ready.map(worker => worker.ready))
  return () => ready.shift()!
}

afterEach(async () => {
  for (const worker of workers.splice(0)) worker.terminate()
})

describe('a tool written in the app keeps its time limit', () => {
  it('ends an allocation loop at its limit: the page terminates the worker busy inside QuickJS', async () => {
    const spawn = await warmWorkers(1)
    const sandbox = createUserToolSandbox({ name: 'hog', code: ALLOCATION_LOOP, timeoutMs: 2_000 }, { spawn })
    const worker = workers[0]!
    const startedAt = Date.now()
    await expect(sandbox.handler({}, context())).rejects.toMatchObject({
      name: 'TimeoutError',
      message: 'ran past its time limit of 2000 ms and was stopped (its worker was terminated)',
    })
    expect(Date.now() - startedAt).toBeLessThanOrEqual(2_000 + 1_000)
    expect(worker.terminatedAt! - startedAt).toBeLessThanOrEqual(2_000 + 1_000)
    await worker.exited
  })

  it('ends the editor\'s test run of an allocation loop by its limit too', async () => {
    const spawn = await warmWorkers(1)
    const startedAt = Date.now()
    expect(await testRunUserTool(ALLOCATION_LOOP, {}, { spawn, timeoutMs: 1_000 }))
      .toMatchObject({ ok: false, name: 'TimeoutError', message: expect.stringContaining('ran past its time limit of 1000 ms') })
    expect(Date.now() - startedAt).toBeLessThanOrEqual(1_000 + 1_000)
  })

  it('ends a microtask flood with a timeout, and the next call works in a fresh worker', async () => {
    const spawn = await warmWorkers(2)
    const flood = createUserToolSandbox({ name: 'flood', code: MICROTASK_FLOOD, timeoutMs: 1_000 }, { spawn })
    const startedAt = Date.now()
    await expect(flood.handler({}, context())).rejects.toMatchObject({ name: 'TimeoutError', message: expect.stringContaining('ran past its time limit of 1000 ms') })
    expect(Date.now() - startedAt).toBeLessThanOrEqual(1_000 + 1_000)

    const next = createUserToolSandbox({ name: 'add', code: 'return args.a + args.b' }, { spawn })
    expect(await next.handler({ a: 2, b: 40 }, context())).toBe(42)
    expect(workers.map(worker => worker.terminatedAt !== undefined)).toEqual([true, true])
  })
})
