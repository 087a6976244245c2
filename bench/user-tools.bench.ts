// Tools written in the app: what QuickJS costs per call in Node (the worker runs the same runner). Loading the
// engine (wasm compile + instantiate), one call (a fresh runtime and context, arguments in, JSON out), a call doing
// real work, and how fast the limits answer: a 1 GB allocation refused, an endless loop interrupted at 200 ms.
// Run: `node --import tsx bench/user-tools.bench.ts` (or `npm run bench user-tools`).
import { pathToFileURL } from 'node:url'
import { newQuickJSWASMModuleFromVariant } from 'quickjs-emscripten-core'
import releaseSync from '@jitl/quickjs-wasmfile-release-sync'
import { runInQuickJS } from '../app/utils/chat/user-tools/quickjs-runner'
import { measure, printTable, writeResult } from './lib/index'

const INTERRUPT_AT_MS = 200

export async function runUserToolsBench() {
  const loadStarted = performance.now()
  const quickjs = await newQuickJSWASMModuleFromVariant(releaseSync)
  const loadMs = performance.now() - loadStarted

  const call = (code: string, args: unknown = {}, timeoutMs = 5_000) => runInQuickJS(quickjs, { code, args, timeoutMs })
  const add = await measure(() => call('return args.a + args.b', { a: 1, b: 2 }), { runs: 51, warmup: 5 })
  const work = await measure(() => call('return args.list.map(x => x * x).reduce((a, b) => a + b, 0)', { list: Array.from({ length: 10_000 }, (_, i) => i) }), { runs: 21, warmup: 3 })
  const refuse = await measure(() => call('return new Uint8Array(1024 * 1024 * 1024).length'), { runs: 11, warmup: 1 })
  const interrupt = await measure(() => call('for (;;) {}', {}, INTERRUPT_AT_MS), { runs: 5, warmup: 0 })

  const rows = [
    { case: 'load the QuickJS module (once per worker)', median_ms: Number(loadMs.toFixed(2)), min_ms: Number(loadMs.toFixed(2)) },
    { case: 'one call: return args.a + args.b', median_ms: add.medianMs, min_ms: add.minMs },
    { case: 'one call: sum of squares over 10,000 numbers', median_ms: work.medianMs, min_ms: work.minMs },
    { case: '1 GB allocation refused', median_ms: refuse.medianMs, min_ms: refuse.minMs },
    { case: `endless loop interrupted (limit ${INTERRUPT_AT_MS} ms)`, median_ms: interrupt.medianMs, min_ms: interrupt.minMs },
  ]
  printTable('Tools written in the app: QuickJS (medians)', rows)
  await writeResult('user-tools', rows)
  return rows
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runUserToolsBench()
}
