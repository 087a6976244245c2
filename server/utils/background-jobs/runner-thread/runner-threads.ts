import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { RunnerThreadConfig } from './runner-thread-config'
import { serveToolBridge } from './tool-bridge'

/** The runner threads' entry, written beside the server's by modules/chat-runner-thread.ts at build. */
export const RUNNER_THREAD_FILE = 'chat-runner-thread.mjs'

/**
 * Where the built runner thread is: beside the server entry (`node .output/server/index.mjs`). Undefined under
 * `npm run dev` and in tests, where chats run on the main thread as before.
 */
export function findRunnerThreadFile(entry = process.argv[1]): string | undefined {
  if (!entry) return undefined
  const file = join(dirname(entry), RUNNER_THREAD_FILE)
  return existsSync(file) ? file : undefined
}

/**
 * How many runner threads an instance starts (`NUXT_JOB_RUNNER_THREADS`): a number, or by default one per core
 * beyond the main thread's (at least one). 0 runs chats on the main thread.
 */
export function runnerThreadCount(configured: unknown): number {
  const value = Number(configured)
  if (Number.isInteger(value) && value >= 0 && String(configured ?? '').trim() !== '') return Math.min(value, 64)
  return Math.max(1, availableParallelism() - 1)
}

let running: Array<{ stop: () => Promise<void> }> = []

/**
 * Starts `count` runner threads from `file`: each runs its own BullMQ worker (`config.concurrency` chats at once)
 * and asks this thread to run server tools. A thread that dies is started again a second later.
 */
export function startRunnerThreads(file: string, count: number, config: RunnerThreadConfig): void {
  for (let index = 0; index < count; index++) running.push(keepRunning(file, config, index))
  console.info(`[jobs] background chats run on ${count} runner thread${count === 1 ? '' : 's'}, ${config.concurrency} at once each`)
}

function keepRunning(file: string, config: RunnerThreadConfig, index: number): { stop: () => Promise<void> } {
  let thread: Worker | undefined
  let stopping = false
  let restartTimer: ReturnType<typeof setTimeout> | undefined
  const start = () => {
    const started = new Worker(file, { workerData: config, name: `chat-runner-${index}` })
    thread = started
    serveToolBridge(started)
    started.on('error', error => console.error(`[jobs] runner thread ${index}:`, error))
    started.on('exit', (code) => {
      if (stopping || thread !== started) return
      console.error(`[jobs] runner thread ${index} exited (${code}); starting it again`)
      restartTimer = setTimeout(start, 1000)
      restartTimer.unref?.()
    })
  }
  start()
  return {
    async stop() {
      stopping = true
      clearTimeout(restartTimer)
      const current = thread
      if (!current) return
      const closed = new Promise<void>((resolve) => {
        current.on('message', (message: { type: string }) => message.type === 'closed' && resolve())
        current.once('exit', () => resolve())
      })
      current.postMessage({ type: 'close' })
      // A thread that does not close in time (a tool ignoring its signal) is ended: its jobs are taken over.
      const deadline = new Promise<void>(resolve => setTimeout(resolve, 10_000).unref?.())
      await Promise.race([closed, deadline])
      await current.terminate()
    },
  }
}

/** Stops every runner thread (Nitro's 'close' hook): their running chats are left for a takeover. */
export async function closeRunnerThreads(): Promise<void> {
  const stopping = running
  running = []
  await Promise.all(stopping.map(thread => thread.stop()))
}
