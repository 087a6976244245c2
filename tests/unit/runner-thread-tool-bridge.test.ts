// Background chats on Redis run on a runner thread, while the server tools stay in the main thread's registry (Nitro
// plugins register them there). A real worker thread here calls tools registered in this (the main) thread.
import { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ToolResult } from '#shared/tools/tool-types'
import { serveToolBridge } from '~~/server/utils/background-jobs/runner/runner-thread/tool-bridge'
import { registerServerTool } from '~~/server/utils/chat/tool-registry'

let thread: Worker
const disposers: Array<() => void> = []
const parameters = { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] }

beforeAll(async () => {
  thread = new Worker(new URL('./helpers/tool-bridge-thread.mjs', import.meta.url))
  serveToolBridge(thread)
  await new Promise<void>(resolve => thread.on('message', (message: { type: string }) => message.type === 'ready' && resolve()))
}, 30_000)

afterAll(async () => {
  for (const dispose of disposers) dispose()
  await thread?.terminate()
})

function runInThread(name: string, args: unknown, timeoutMs?: number): Promise<{ result: ToolResult, statuses: string[] }> {
  return new Promise((resolve) => {
    const onMessage = (message: { type: string, result: ToolResult, statuses: string[] }) => {
      if (message.type !== 'ran') return
      thread.off('message', onMessage)
      resolve(message)
    }
    thread.on('message', onMessage)
    thread.postMessage({ type: 'run', name, args: JSON.stringify(args), timeoutMs })
  })
}

describe('server tools called from a runner thread', () => {
  it('run on the main thread with the validated arguments, the thread\'s call id, and their progress reported back', async () => {
    const seen: unknown[] = []
    disposers.push(registerServerTool({ type: 'function', function: { name: 'bridge_echo', parameters } }, (args, context) => {
      seen.push({ args, callId: context.callId, threadId: context.threadId })
      context.status('halfway')
      return { echoed: (args as { text: string }).text }
    }, { runtime: 'server' }))
    const { result, statuses } = await runInThread('bridge_echo', { text: 'hi' })
    expect(result).toMatchObject({ status: 'done', content: '{"echoed":"hi"}' })
    expect(seen).toEqual([{ args: { text: 'hi' }, callId: result.callId, threadId: 'bridge-test' }])
    expect(statuses).toEqual(['halfway'])
  })

  it('refuse bad arguments in the thread, before the main thread runs anything', async () => {
    const handler = vi.fn(() => 'ran')
    disposers.push(registerServerTool({ type: 'function', function: { name: 'bridge_strict', parameters } }, handler, { runtime: 'server' }))
    const { result } = await runInThread('bridge_strict', { text: 42 })
    expect(result).toMatchObject({ status: 'error', error: { kind: 'invalid-input' } })
    expect(handler).not.toHaveBeenCalled()
  })

  it('come back as an error result when the handler throws or returns nothing usable', async () => {
    disposers.push(registerServerTool({ type: 'function', function: { name: 'bridge_throws', parameters } }, () => {
      throw new Error('the upstream said no')
    }, { runtime: 'server' }))
    disposers.push(registerServerTool({ type: 'function', function: { name: 'bridge_undefined', parameters } }, () => undefined, { runtime: 'server' }))
    const thrown = await runInThread('bridge_throws', { text: 'x' })
    expect(thrown.result).toMatchObject({ status: 'error', error: { kind: 'execution' } })
    expect(thrown.result.content).toContain('the upstream said no')
    const empty = await runInThread('bridge_undefined', { text: 'x' })
    expect(empty.result.status).toBe('error')
    expect(empty.result.content).toContain('returned undefined')
  })

  it('abort the main thread\'s handler when the call times out in the thread', async () => {
    let aborted = false
    disposers.push(registerServerTool({ type: 'function', function: { name: 'bridge_slow', parameters } }, (_args, context) => new Promise((_, reject) => {
      context.signal.addEventListener('abort', () => {
        aborted = true
        reject(context.signal.reason)
      })
    }), { runtime: 'server' }))
    const { result } = await runInThread('bridge_slow', { text: 'x' }, 100)
    expect(result).toMatchObject({ status: 'error', error: { kind: 'timeout' } })
    await vi.waitFor(() => expect(aborted).toBe(true))
  })

  it('follow the main registry: a tool unregistered there is gone for the next chat', async () => {
    const dispose = registerServerTool({ type: 'function', function: { name: 'bridge_gone', parameters } }, () => 'here', { runtime: 'server' })
    expect((await runInThread('bridge_gone', { text: 'x' })).result.status).toBe('done')
    dispose()
    const { result } = await runInThread('bridge_gone', { text: 'x' })
    expect(result).toMatchObject({ status: 'error', error: { kind: 'no-such-tool' } })
  })
})

describe('how many runner threads an instance starts', () => {
  it('takes NUXT_JOB_RUNNER_THREADS when set (0 keeps chats on the main thread), else one per core beyond the first', async () => {
    const { runnerThreadCount, findRunnerThreadFile } = await import('~~/server/utils/background-jobs/runner/runner-thread/runner-threads')
    const { availableParallelism } = await import('node:os')
    expect(runnerThreadCount(0)).toBe(0)
    expect(runnerThreadCount('3')).toBe(3)
    expect(runnerThreadCount(1000)).toBe(64)
    expect(runnerThreadCount('')).toBe(Math.max(1, availableParallelism() - 1))
    expect(runnerThreadCount('many')).toBe(Math.max(1, availableParallelism() - 1))
    // No built thread beside the entry (npm run dev, tests): chats run on the main thread.
    expect(findRunnerThreadFile('/nowhere/index.mjs')).toBeUndefined()
  })
})
