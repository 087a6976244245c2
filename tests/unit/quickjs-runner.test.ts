import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { QuickJSWASMModule } from 'quickjs-emscripten-core'
import { checkHandlerSyntax, createQuickJSRunner, runInQuickJS } from '~/utils/chat/user-tools/quickjs-runner'
import type { QuickJSRunOutcome } from '~/utils/chat/user-tools/quickjs-runner'
import { isModuleRetired } from '~/utils/chat/user-tools/quickjs-sandbox'
import { USER_TOOL_MAX_LOG_LINES, USER_TOOL_MAX_RESULT_CHARS } from '~/utils/chat/user-tools/user-tool-limits'
import { loadQuickJS } from './helpers/quickjs'

let quickjs: QuickJSWASMModule
beforeAll(async () => {
  quickjs = await loadQuickJS()
})
// A test that cuts a call off inside the engine retires the module (see the microtask tests): the next gets a new one.
beforeEach(async () => {
  if (isModuleRetired(quickjs)) quickjs = await loadQuickJS()
})

function run(code: string, args: unknown = {}, timeoutMs = 1_000): QuickJSRunOutcome {
  return runInQuickJS(quickjs, { code, args, timeoutMs })
}

function errorOf(outcome: QuickJSRunOutcome) {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`)
  return outcome.error
}

describe('a handler written in the app, run in QuickJS', () => {
  it('gets its arguments and returns a value: a string as text, anything else as JSON', () => {
    expect(run('return args.a + args.b', { a: 2, b: 40 })).toMatchObject({ ok: true, value: 42 })
    expect(run('return `Hello, ${args.name}!`', { name: 'Ada' })).toMatchObject({ ok: true, value: 'Hello, Ada!' })
    expect(run('return { items: args.list.map(x => x * 2), empty: null }', { list: [1, 2] }))
      .toMatchObject({ ok: true, value: { items: [2, 4], empty: null } })
  })

  it('may use await (the body is an async function)', () => {
    expect(run('const value = await Promise.resolve(args.n); return value + 1', { n: 1 })).toMatchObject({ ok: true, value: 2 })
  })

  it('reports what it throws with the error\'s own name and message', () => {
    expect(errorOf(run('throw new RangeError("n must be positive")'))).toEqual({ name: 'RangeError', message: 'n must be positive' })
    expect(errorOf(run('return args.missing.field'))).toMatchObject({ name: 'TypeError' })
    expect(errorOf(run('await Promise.reject(new Error("later"))'))).toEqual({ name: 'Error', message: 'later' })
  })

  it('refuses a value that is not JSON, or nothing, with a message that says what to return', () => {
    expect(errorOf(run('args.a + 1'))).toMatchObject({ message: expect.stringContaining('return <value>') })
    expect(errorOf(run('return () => 1'))).toMatchObject({ message: expect.stringContaining('not JSON') })
  })

  it('reports a syntax error instead of running, and a body cannot close its function early', () => {
    expect(errorOf(run('return )'))).toMatchObject({ name: 'SyntaxError' })
    expect(errorOf(run('}); (function () {'))).toMatchObject({ name: 'SyntaxError' })
    expect(checkHandlerSyntax(quickjs, 'return args.a')).toBeNull()
    expect(checkHandlerSyntax(quickjs, 'return (')).toMatch(/^SyntaxError: /)
  })

  it('captures console output, capped in lines, and counts what it dropped', () => {
    const outcome = run('console.log("sum", 1 + 2, { ok: true }); console.warn("careful"); return 1')
    expect(outcome).toMatchObject({ ok: true, logs: ['sum 3 {"ok":true}', '[warn] careful'], droppedLogs: 0 })
    const flood = run('for (let i = 0; i < 1000; i++) console.log("line " + i); return "done"')
    expect(flood.logs).toHaveLength(USER_TOOL_MAX_LOG_LINES)
    expect(flood).toMatchObject({ ok: true, value: 'done', droppedLogs: 1000 - USER_TOOL_MAX_LOG_LINES })
  })

  it('keeps the output of a handler that then fails', () => {
    expect(run('console.log("before"); throw new Error("after")')).toMatchObject({ ok: false, logs: ['before'] })
  })
})

describe('the sandbox\'s limits', () => {
  it('interrupts an endless loop at its time limit', () => {
    expect(errorOf(run('for (;;) {}', {}, 200))).toEqual({ name: 'TimeoutError', message: 'ran past its time limit of 200 ms and was stopped' })
    expect(errorOf(run('while (true) { try { for (;;) {} } catch (e) {} }', {}, 200))).toMatchObject({ name: 'TimeoutError' })
  })

  it('counts the limit from when the page sent the call, not from when the worker got to it', () => {
    const outcome = runInQuickJS(quickjs, { code: 'let n = 0; for (let i = 0; i < 1e6; i++) n += i; return n', args: {}, timeoutMs: 500, startedAt: Date.now() - 1_000 })
    expect(errorOf(outcome)).toMatchObject({ name: 'TimeoutError' })
    expect(runInQuickJS(quickjs, { code: 'return 1', args: {}, timeoutMs: 500, startedAt: Date.now() })).toMatchObject({ ok: true, value: 1 })
  })

  it('interrupts catastrophic regular expressions and a toJSON that never returns', () => {
    expect(errorOf(run('return /(a*)*b/.test("a".repeat(40))', {}, 200))).toMatchObject({ name: 'TimeoutError' })
    expect(errorOf(run('return { toJSON() { for (;;) {} } }', {}, 200))).toMatchObject({ name: 'TimeoutError' })
  })

  it('refuses a 1 GB allocation, and a heap that grows past 32 MB', () => {
    expect(errorOf(run('return new Uint8Array(1024 * 1024 * 1024).length'))).toEqual({ name: 'MemoryLimitError', message: 'ran out of memory (the sandbox allows 32 MB)' })
    expect(errorOf(run('const chunks = []; for (;;) chunks.push(new Uint8Array(1024 * 1024))', {}, 10_000))).toMatchObject({ name: 'MemoryLimitError' })
    // QuickJS keeps doubled strings as ropes, so this meets the length cap rather than the heap's
    expect(errorOf(run('let s = "x"; for (;;) s += s', {}, 10_000)).message).toMatch(/out of memory|string too long/)
  })

  it('stops runaway recursion with a stack overflow, inside the sandbox', () => {
    expect(errorOf(run('function down() { return down() } return down()'))).toMatchObject({ message: 'stack overflow' })
    expect(errorOf(run('return JSON.parse("[".repeat(100000))'))).toMatchObject({ message: 'stack overflow' })
  })

  it('runs the next call normally after a call hit a limit', () => {
    run('for (;;) {}', {}, 100)
    run('return new Uint8Array(1024 * 1024 * 1024)')
    run('function down() { return down() } return down()')
    expect(run('return args.n * 2', { n: 21 })).toMatchObject({ ok: true, value: 42 })
  })

  it('refuses a result larger than the cap', () => {
    expect(errorOf(run(`return "x".repeat(${USER_TOOL_MAX_RESULT_CHARS + 1})`, {}, 5_000))).toMatchObject({ name: 'RangeError', message: expect.stringContaining(`at most ${USER_TOOL_MAX_RESULT_CHARS}`) })
  })

  it('has no network, no host, no modules and no timers', () => {
    for (const name of ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'require', 'process', 'module', 'window',
      'document', 'self', 'postMessage', 'importScripts', 'localStorage', 'indexedDB', 'navigator', 'location',
      'setTimeout', 'setInterval', 'WebAssembly', 'Worker', 'caches', 'std', 'os']) {
      expect(run(`return typeof ${name}`), name).toMatchObject({ ok: true, value: 'undefined' })
    }
    expect(errorOf(run('return await fetch("https://example.com/")'))).toEqual({ name: 'ReferenceError', message: '\'fetch\' is not defined' })
    expect(errorOf(run('return require("fs")'))).toMatchObject({ name: 'ReferenceError' })
    expect(errorOf(run('return await import("https://example.com/x.js")'))).toBeDefined()
  })

  it('gives globalThis only the language\'s built-ins and the recording console, however it is reached', () => {
    const names = run('return Object.getOwnPropertyNames(globalThis)')
    expect(names.ok && names.value).toEqual(expect.arrayContaining(['Object', 'JSON', 'Promise', 'console']))
    expect(run('return Object.getOwnPropertyNames(Function("return this")()).length === Object.getOwnPropertyNames(globalThis).length'))
      .toMatchObject({ ok: true, value: true })
    expect(run('return typeof (0, eval)("this").fetch + typeof globalThis.constructor.constructor("return this")().document'))
      .toMatchObject({ ok: true, value: 'undefinedundefined' })
    expect(errorOf(run('return globalThis.localStorage.getItem("plugboard:provider-settings:v1")'))).toMatchObject({ name: 'TypeError' })
  })

  it('starts every call with fresh globals: one call cannot leave anything for the next', () => {
    expect(run('globalThis.leak = args.secret; Array.prototype.push = null; return 1', { secret: 'sk-123' })).toMatchObject({ ok: true })
    expect(run('return [typeof leak, typeof Array.prototype.push]')).toMatchObject({ ok: true, value: ['undefined', 'function'] })
  })
})

describe('a flood of microtasks', () => {
  const flood = 'const f = () => Promise.resolve().then(f); f(); await new Promise(() => {})'

  it('is stopped at the time limit with a timeout, not an engine crash, and the next call works', async () => {
    const runner = createQuickJSRunner(loadQuickJS)
    const startedAt = Date.now()
    expect(await runner.run({ code: flood, args: {}, timeoutMs: 500 }))
      .toMatchObject({ ok: false, error: { name: 'TimeoutError', message: 'ran past its time limit of 500 ms and was stopped' } })
    expect(Date.now() - startedAt).toBeLessThan(500 + 1_000)
    expect(await runner.run({ code: 'return args.n * 2', args: { n: 21 }, timeoutMs: 500 })).toMatchObject({ ok: true, value: 42 })
  })

  it('is stopped however it grows, and even when the handler catches the interrupt', async () => {
    const runner = createQuickJSRunner(loadQuickJS)
    for (const code of [
      'const f = () => { Promise.resolve().then(f); Promise.resolve().then(f) }; f(); await new Promise(() => {})',
      'const spin = async () => { for (;;) {} }; for (;;) { try { await spin() } catch {} }',
      'const spin = async () => { for (;;) {} }; try { await spin() } catch { return "escaped" }',
    ]) {
      expect(await runner.run({ code, args: {}, timeoutMs: 300 }), code).toMatchObject({ ok: false, error: { name: 'TimeoutError' } })
    }
  })

  it('retires the module it was cut off in: the runner loads a new one, and the old one is never run again', async () => {
    const load = vi.fn(loadQuickJS)
    const runner = createQuickJSRunner(load)
    expect(await runner.run({ code: 'return 1', args: {}, timeoutMs: 500 })).toMatchObject({ ok: true })
    const first = await load.mock.results[0]!.value as QuickJSWASMModule
    expect(await runner.run({ code: flood, args: {}, timeoutMs: 300 })).toMatchObject({ ok: false, error: { name: 'TimeoutError' } })
    expect(isModuleRetired(first)).toBe(true)
    expect(runInQuickJS(first, { code: 'return 1', args: {}, timeoutMs: 500 }))
      .toMatchObject({ ok: false, error: { name: 'SandboxError', message: expect.stringMatching(/^the sandbox stopped: /) } })
    expect(await runner.run({ code: 'return 2', args: {}, timeoutMs: 500 })).toMatchObject({ ok: true, value: 2 })
    expect(load).toHaveBeenCalledTimes(2)
  })
})

describe('createQuickJSRunner', () => {
  it('loads the engine on the first call, keeps it, and tries loading again after a failed load', async () => {
    const load = vi.fn<() => Promise<QuickJSWASMModule>>()
      .mockRejectedValueOnce(new Error('wasm blocked'))
      .mockImplementation(loadQuickJS)
    const runner = createQuickJSRunner(load)
    await expect(runner.run({ code: 'return 1', args: {}, timeoutMs: 500 })).rejects.toThrow('wasm blocked')
    expect(await runner.run({ code: 'return 2', args: {}, timeoutMs: 500 })).toMatchObject({ ok: true, value: 2 })
    expect(await runner.checkSyntax('return 3')).toBeNull()
    expect(load).toHaveBeenCalledTimes(2)
  })
})
