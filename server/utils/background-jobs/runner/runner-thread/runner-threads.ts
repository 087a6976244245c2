import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { JobControlMessage } from '../../control/job-control'
import type { AnswerJobApprovalResult } from '../pending-approvals'
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

interface RunningThread {
  stop: () => Promise<void>
  /** Hands an approval answer to this thread; what its waiting call said (not-waiting when none waits there). */
  answerApproval: (request: ApprovalForThread) => Promise<AnswerJobApprovalResult>
}

/** An approval answer handed to the runner threads of this instance. */
export type ApprovalForThread = Omit<Extract<JobControlMessage, { type: 'approval-answer' }>, 'type'>

let running: RunningThread[] = []

/**
 * Starts `count` runner threads from `file`: each runs its own BullMQ worker (`config.concurrency` chats at once)
 * and asks this thread to run server tools. A thread that dies is started again a second later.
 */
export function startRunnerThreads(file: string, count: number, config: RunnerThreadConfig): void {
  for (let index = 0; index < count; index++) running.push(keepRunning(file, config, index))
  console.info(`[jobs] background chats run on ${count} runner thread${count === 1 ? '' : 's'}, ${config.concurrency} at once each`)
}

function keepRunning(file: string, config: RunnerThreadConfig, index: number): RunningThread {
  let thread: Worker | undefined
  let nextRequest = 0
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
    answerApproval(request) {
      const current = thread
      if (!current) return Promise.resolve({ ok: false, reason: 'not-waiting' })
      const id = nextRequest++
      return new Promise((resolve) => {
        const onMessage = (message: { type: string, id: number, result: AnswerJobApprovalResult }) => {
          if (message.type !== 'approval-answered' || message.id !== id) return
          current.off('message', onMessage)
          current.off('exit', onExit)
          resolve(message.result)
        }
        const onExit = () => resolve({ ok: false, reason: 'not-waiting' })
        current.on('message', onMessage)
        current.once('exit', onExit)
        current.postMessage({ type: 'approval-answer', id, request })
      })
    },
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

/**
 * Hands a tab's approval answer to the call waiting on one of this instance's runner threads, so edited arguments
 * that break the tool's schema are refused with the runner's reason, as when the chat runs on the main thread.
 * 'not-waiting' when no thread here has the call (it may wait on another instance).
 */
export async function answerApprovalInRunnerThreads(request: ApprovalForThread): Promise<AnswerJobApprovalResult> {
  const answers = await Promise.all(running.map(thread => thread.answerApproval(request)))
  return answers.find(answer => answer.ok || answer.reason !== 'not-waiting') ?? { ok: false, reason: 'not-waiting' }
}

/** Stops every runner thread (Nitro's 'close' hook): their running chats are left for a takeover. */
export async function closeRunnerThreads(): Promise<void> {
  const stopping = running
  running = []
  await Promise.all(stopping.map(thread => thread.stop()))
}
