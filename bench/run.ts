// `npm run bench`: every benchmark, side by side with its peers, in one run. Not part of `npm test`.
// Each bench prints its own table and writes bench/results/<name>.json; this prints a summary at the end.
import { writeFileSync, mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { ensureRedisServerBinary } from './lib/redis-server-binary'

interface BenchModule {
  name: string
  load: () => Promise<Record<string, unknown>>
  run: string
  /** A program the bench starts: found (or installed) before it loads, or the bench is skipped with a notice. */
  needs?: 'redis-server'
}

const benches: BenchModule[] = [
  { name: 'stream-reader', load: () => import('./stream-reader.bench'), run: 'runStreamReaderBench' },
  { name: 'registry', load: () => import('./registry.bench'), run: 'runRegistryBench' },
  { name: 'catalog', load: () => import('./catalog.bench'), run: 'runCatalogBench' },
  { name: 'loop', load: () => import('./loop.bench'), run: 'runLoopBench' },
  { name: 'demo-model', load: () => import('./demo-model.bench'), run: 'runDemoModelBench' },
  { name: 'approval', load: () => import('./approval.bench'), run: 'runApprovalBench' },
  { name: 'background-jobs', load: () => import('./background-jobs.bench'), run: 'runBackgroundJobsBench', needs: 'redis-server' },
  { name: 'mcp', load: () => import('./mcp.bench'), run: 'runMcpBench' },
  { name: 'user-tools', load: () => import('./user-tools.bench'), run: 'runUserToolsBench' },
]

const only = process.argv.slice(2)
const summary: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, cpus: (await import('node:os')).cpus().length }
let failed = false
for (const bench of benches) {
  if (only.length && !only.includes(bench.name)) continue
  console.log(`\n=== ${bench.name} ===`)
  if (bench.needs === 'redis-server') {
    const redis = ensureRedisServerBinary()
    if (!redis.ok) {
      console.log(`Skipped: ${redis.notice}`)
      summary[bench.name] = { skipped: redis.notice }
      continue
    }
  }
  try {
    const module = await bench.load()
    const run = module[bench.run] as () => Promise<unknown>
    summary[bench.name] = await run()
  }
  catch (error) {
    failed = true
    console.error(`bench ${bench.name} failed:`, error)
    summary[bench.name] = { error: String(error) }
  }
}
mkdirSync(resolve('bench/results'), { recursive: true })
writeFileSync(resolve('bench/results/summary.json'), `${JSON.stringify(summary, null, 2)}\n`)
console.log('\nResults written to bench/results/')
process.exit(failed ? 1 : 0)
