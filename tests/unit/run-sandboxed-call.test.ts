import { describe, expect, it } from 'vitest'
import { defineTool } from '../../shared/tools/definition/define-tool'
import { runSandboxedCall } from '~/utils/chat/sandbox/run-sandboxed-call'
import type { PluginModules } from '~/utils/chat/sandbox/run-sandboxed-call'
import type { SandboxResponse, SandboxRunRequest } from '~/utils/chat/sandbox/sandbox-messages'

const contexts: Record<string, unknown>[] = []

const modules: PluginModules = {
  '../../../../plugins/echo.ts': async () => ({
    default: defineTool({
      name: 'echo',
      sandbox: 'worker',
      handler(args, context) {
        contexts.push({ ...context })
        context.status('working')
        return { args }
      },
    }),
  }),
  '../../../../plugins/on-page.ts': async () => ({ default: defineTool({ name: 'on_page', handler: () => 'page' }) }),
  '../../../../plugins/returns-function.ts': async () => ({ default: defineTool({ name: 'returns_function', sandbox: 'worker', handler: () => () => 1 }) }),
  '../../../../plugins/throws-string.ts': async () => ({
    default: defineTool({
      name: 'throws_string',
      sandbox: 'worker',
      handler: () => {
        // plugins do throw non-Errors; the sandbox must cope
        throw 'no luck'
      },
    }),
  }),
}

function request(file: string, toolName: string, args: unknown = {}): SandboxRunRequest {
  return { type: 'run', file, toolName, args, threadId: 'thread-1', callId: 'call-1' }
}

/** Runs one request and collects what the worker would post, cloned as postMessage clones it. */
async function runInWorker(runRequest: SandboxRunRequest, plugins = modules): Promise<SandboxResponse[]> {
  const posted: SandboxResponse[] = []
  await runSandboxedCall(runRequest, plugins, message => posted.push(structuredClone(message)))
  return posted
}

describe('inside a sandbox worker', () => {
  it('runs the plugin file\'s handler with the arguments and posts its status, then its result', async () => {
    expect(await runInWorker(request('echo.ts', 'echo', { text: 'hi' }))).toEqual([
      { type: 'status', text: 'working' },
      { type: 'result', value: { args: { text: 'hi' } } },
    ])
  })

  it('gives the handler only the ids, a status function, a signal, its settings and fetch (the page kills the worker instead of aborting)', async () => {
    contexts.length = 0
    await runInWorker(request('echo.ts', 'echo'))
    expect(Object.keys(contexts[0]!).sort()).toEqual(['callId', 'fetch', 'settings', 'signal', 'status', 'threadId'])
    expect(contexts[0]).toMatchObject({ threadId: 'thread-1', callId: 'call-1', signal: { aborted: false }, settings: {} })
    contexts.length = 0
    await runInWorker({ ...request('echo.ts', 'echo'), settings: { units: 'imperial' } })
    expect(contexts[0]!.settings).toEqual({ units: 'imperial' })
  })

  it('refuses a tool that did not ask for the sandbox, since it may rely on the page', async () => {
    expect(await runInWorker(request('on-page.ts', 'on_page'))).toEqual([
      { type: 'error', name: 'Error', message: 'plugins/on-page.ts does not declare sandbox: \'worker\'' },
    ])
  })

  it('names a file it does not have, and a file that defines another tool', async () => {
    expect(await runInWorker(request('missing.ts', 'missing'))).toEqual([
      { type: 'error', name: 'Error', message: 'plugins/missing.ts is not in the sandbox worker\'s build' },
    ])
    expect(await runInWorker(request('echo.ts', 'other'))).toEqual([
      { type: 'error', name: 'Error', message: 'plugins/echo.ts does not define the tool "other"' },
    ])
  })

  it('turns a result that cannot leave the worker into an error that asks for plain JSON', async () => {
    const [message] = await runInWorker(request('returns-function.ts', 'returns_function'))
    expect(message).toMatchObject({ type: 'error', name: 'DataCloneError' })
    expect((message as { message: string }).message).toMatch(/^returned a value that cannot leave its Web Worker \(.+\)\. Return a string or plain JSON\.$/)
  })

  it('reports a thrown string as its text', async () => {
    expect(await runInWorker(request('throws-string.ts', 'throws_string'))).toEqual([{ type: 'error', name: 'Error', message: 'no luck' }])
  })

  it('runs the real calculate plugin from the plugins folder', async () => {
    const plugins = import.meta.glob('../../plugins/*.ts')
    expect(await runInWorker(request('calculate.ts', 'calculate', { expression: 'size(ones(2,3)*ones(3,2))' }), plugins))
      .toEqual([{ type: 'result', value: '[2, 2]' }])
    expect(await runInWorker(request('calculate.ts', 'calculate', { expression: '2 +* 3' }), plugins))
      .toEqual([{ type: 'error', name: 'Error', message: expect.stringMatching(/^Cannot evaluate "2 \+\* 3": /) }])
  })
})
