// Background chats at scale: 500 concurrent chats against a loopback fake model (3 steps each: two calls to a no-op
// server tool, then a short text), run through the real queue and runner. Every party is a process of its own, as
// in production: the fake model, and each app instance (its own Redis client, store, queue worker and the SSE-like
// subscriptions of the chats it created). Embedded: one instance (in-process queue, memory store). Redis: two
// instances on one redis-server (BullMQ + Streams); each follows the chats it created, which run on either.
// Reports chats per second, event latency from the runner's append (a wall-clock stamp in the event) to the
// subscriber on the *other* instance (p50 / p99), each instance's event-loop delay, memory per job while all chats
// wait in their last step, and the load average. Run: `npm run bench:jobs`. Needs redis-server.
import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { loadavg } from 'node:os'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Redis } from 'ioredis'
import { startRedisServer } from '../tests/unit/helpers/redis-server'
import type { FromInstance, InstanceConfig, ToInstance } from './background-jobs/protocol'
import { printTable, writeResult } from './lib/index'
import { median, percentile, spread, startServingProbe } from './background-jobs/serving-probe'
import { DEFAULT_JOB_CONCURRENCY } from '../server/utils/background-jobs/queue/job-concurrency'

const CHATS = Number(process.env.BENCH_JOBS_CHATS ?? 500)
const STEPS = 3
// BENCH_JOBS_ONLY=embedded,both,both-bounded,a-runs,serving picks scenarios (default: all five; BENCH_JOBS_REPS sets
// the serving comparison's repetitions, default 3); BENCH_JOBS_CONCURRENCY sets
// the bounded scenario's chats per instance (default: the server's default, DEFAULT_JOB_CONCURRENCY).
// Each instance runs its queue worker and chat runners on the thread that serves its streams, as the server does.
const ONLY = process.env.BENCH_JOBS_ONLY?.split(',').map(name => name.trim()).filter(Boolean)
const wanted = (scenario: string) => !ONLY?.length || ONLY.includes(scenario)
// BENCH_CPU_PROF=<dir> writes a CPU profile of every process there (where an instance's time goes).
const execArgv = ['--expose-gc', '--import', 'tsx', ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])]

/** A forked process and a way to wait for its next message of a kind. */
function start(script: string, env: Record<string, string> = {}) {
  const withoutSlice = env.BENCH_JOBS_NO_SLICE === '1' ? ['--import', fileURLToPath(new URL('./background-jobs/no-time-slice.mjs', import.meta.url))] : []
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], { execArgv: [...execArgv, ...withoutSlice], env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const waiting = new Map<string, Array<(message: never) => void>>()
  const listeners: Array<(message: { type: string }) => void> = []
  child.on('message', (message: { type: string }) => {
    for (const listener of listeners) listener(message)
    const resolvers = waiting.get(message.type)
    if (resolvers?.length) resolvers.shift()!(message as never)
  })
  return {
    child,
    send: (message: object) => child.send(message),
    next: <T extends { type: string }>(type: T['type']) => new Promise<T>(resolve => waiting.set(type, [...(waiting.get(type) ?? []), resolve as (message: never) => void])),
    on: (listener: (message: { type: string }) => void) => listeners.push(listener),
  }
}
type Started = ReturnType<typeof start>

/** Waits a moment for a process that was asked to close, then kills it. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000)
    child.once('exit', () => {
      clearTimeout(kill)
      resolve()
    })
  })
}

async function ask<T extends FromInstance>(instances: Started[], message: ToInstance, type: T['type']): Promise<T[]> {
  const answers = instances.map(instance => instance.next<T>(type))
  for (const instance of instances) instance.send(message)
  return Promise.all(answers)
}

async function runScenario(name: string, configs: InstanceConfig[], model: Started, serverBytes: () => Promise<number>) {
  const instances = configs.map(config => start('./background-jobs/instance-process.ts', config.runner && config.runner !== 'slice' ? { BENCH_JOBS_NO_SLICE: '1' } : {}))
  try {
    for (const instance of instances) instance.on(message => message.type === 'lost' && model.send({ type: 'lost' }))
    const ready = await Promise.all(instances.map((instance, index) => {
      const ready = instance.next<Extract<FromInstance, { type: 'ready' }>>('ready')
      instance.send({ type: 'init', config: configs[index] })
      return ready
    }))
    const probe = ready[0]?.url ? startServingProbe(ready[0].url) : undefined
    const share = (index: number) => Math.floor(CHATS / instances.length) + (index < CHATS % instances.length ? 1 : 0)
    await Promise.all(instances.map((instance, index) => {
      const created = instance.next('created')
      instance.send({ type: 'create', count: share(index) })
      return created
    }))
    const serverBefore = await serverBytes()
    const held = model.next('held')
    // Chats alive at once: every chat, unless the instances' worker concurrency holds some back in the queue.
    const alive = Math.min(CHATS, configs.reduce((sum, config) => sum + config.concurrency, 0))
    model.send({ type: 'hold', expected: alive })
    const done = instances.map(instance => instance.next<Extract<FromInstance, { type: 'done' }>>('done'))
    const loadBefore = loadavg()[0]!
    const started = performance.now()
    probe?.resume()
    await ask(instances, { type: 'enqueue' }, 'enqueued')
    await held
    probe?.pause()
    // Measured with every chat alive in its last step; the pause is left out of the throughput.
    const pausedAt = performance.now()
    const measured = await ask<Extract<FromInstance, { type: 'measured' }>>(instances, { type: 'measure' }, 'measured')
    const serverHeld = await serverBytes()
    const pausedMs = performance.now() - pausedAt
    probe?.resume()
    model.send({ type: 'release' })
    const results = await Promise.all(done)
    const serving = await probe?.stop() ?? []
    const seconds = (performance.now() - started - pausedMs) / 1000
    const loadAfter = loadavg()[0]!
    await ask(instances, { type: 'close' }, 'closed')
    const cross = results.flatMap(result => result.crossInstance).sort((a, b) => a - b)
    const same = results.flatMap(result => result.sameInstance).sort((a, b) => a - b)
    const measuredLatencies = configs.length > 1 ? cross : same
    const roundTrips = results.flatMap(result => result.appendRoundTrips).sort((a, b) => a - b)
    return {
      'mode': name,
      ...(probe ? { 'probe failures': probe.failures, 'serving p50 ms': percentile(serving, 50), 'serving p95 ms': percentile(serving, 95), 'serving p99 ms': percentile(serving, 99), 'requests': serving.length, 'RSS MB (held)': measured.reduce((sum, answer) => sum + answer.rssMb, 0) } : {}),
      'chats': CHATS,
      'failed': results.reduce((sum, result) => sum + result.failed, 0),
      'chats/s': CHATS / seconds,
      'events measured': measuredLatencies.length,
      'latency p50 ms': percentile(measuredLatencies, 50),
      'latency p99 ms': percentile(measuredLatencies, 99),
      'latency max ms': measuredLatencies.at(-1) ?? Number.NaN,
      'same-instance p99 ms': configs.length > 1 ? percentile(same, 99) : Number.NaN,
      'append round trip p50 / p99 ms': `${percentile(roundTrips, 50).toFixed(2)} / ${percentile(roundTrips, 99).toFixed(2)}`,
      'loop delay p99 ms (worst instance)': Math.max(...results.map(result => result.loopDelayP99Ms)),
      'concurrency': configs.map(config => config.concurrency).join(' + '),
      // Only with every chat alive at once: with a few alive, the runners' fixed memory would be counted per job.
      'KB/job (instances)': alive === CHATS ? (measured.reduce((sum, answer) => sum + answer.heapDeltaMb, 0) * 1024) / alive : Number.NaN,
      'KB/job (Redis)': ((serverHeld - serverBefore) / 1024) / CHATS,
      'load avg (1 min) before/after': `${loadBefore.toFixed(1)} / ${loadAfter.toFixed(1)}`,
    }
  }
  finally {
    await Promise.all(instances.map(instance => stop(instance.child)))
  }
}

type Row = Awaited<ReturnType<typeof runScenario>>
// The runner time slice against none, with Redis and embedded. (Runner threads, measured here before they were
// retired: docs/decisions/0015-one-way-to-free-the-serving-thread.md.)
const VARIANTS = [
  { key: 'neither', mode: 'redis', runner: 'neither', name: 'neither (Redis; chats on the serving thread, no slice)' },
  { key: 'slice', mode: 'redis', runner: 'slice', name: 'time slice (Redis; chats on the serving thread, 4 ms a turn)' },
  { key: 'embedded-neither', mode: 'embedded', runner: 'neither', name: 'embedded, neither (in-process queue, memory store)' },
  { key: 'embedded-slice', mode: 'embedded', runner: 'slice', name: 'embedded, time slice' },
] as const
const REPS = Number(process.env.BENCH_JOBS_REPS ?? 5)

/**
 * The way to keep the serving thread free against none, side by side: one instance runs every chat and serves a small
 * route on its main thread; each variant runs REPS times, interleaved (the order turns each repetition), so a
 * machine that gets busier mid-run weighs on all of them alike. Figures are medians over the repetitions (min–max).
 */
async function compareServing(model: Started, redisUrl: string, modelUrl: string, redisBytes: () => Promise<number>) {
  // Every chat at once (the worst burst), and at most the server's default concurrency at once (as it ships).
  const concurrencies = [CHATS, DEFAULT_JOB_CONCURRENCY]
  const cases = concurrencies.flatMap(concurrency => VARIANTS.map(variant => ({ ...variant, concurrency, id: `${variant.key}@${concurrency}` })))
  const runs = new Map<string, Row[]>(cases.map(item => [item.id, []]))
  for (let rep = 0; rep < REPS; rep++) {
    for (let index = 0; index < cases.length; index++) {
      const { id, mode, runner, concurrency } = cases[(index + rep) % cases.length]!
      const tag = `${rep}${id.replace(/\W/g, '')}`
      const onRedis = mode === 'redis' ? { redisUrl, queueName: `serving-${tag}`, keyPrefix: `serving${tag}:` } : { queueName: '', keyPrefix: '' }
      const config: InstanceConfig = { name: 'A', mode, ...onRedis, modelUrl, steps: STEPS, concurrency, runner, serve: true }
      const row = await runScenario(`serving ${id} #${rep + 1}`, [config], model, mode === 'redis' ? redisBytes : async () => 0)
      console.log(`${row.mode}: serving p50/p95 ${Number(row['serving p50 ms']).toFixed(1)} / ${Number(row['serving p95 ms']).toFixed(1)} ms, ${row['chats/s'].toFixed(0)} chats/s, ${row['RSS MB (held)']} MB RSS`)
      runs.get(id)!.push(row)
    }
  }
  return cases.map((variant) => {
    const rows = runs.get(variant.id)!
    const figure = (key: keyof Row, digits = 1) => spread(rows.map(row => Number(row[key])), digits)
    return {
      'variant': variant.name,
      'chats at once': variant.concurrency,
      'serving p50 ms': figure('serving p50 ms'),
      'serving p95 ms': figure('serving p95 ms'),
      'serving p99 ms': figure('serving p99 ms'),
      'chats/s': figure('chats/s', 0),
      'event latency p50 ms': figure('latency p50 ms'),
      'event latency p99 ms': figure('latency p99 ms'),
      'KB/job (heap+external)': figure('KB/job (instances)', 0),
      'RSS MB (held)': figure('RSS MB (held)', 0),
      'failed': rows.reduce((sum, row) => sum + row.failed, 0),
      'serving p95 / neither': (median(rows.map(row => Number(row['serving p95 ms']))) / median(runs.get(`${variant.mode === 'redis' ? 'neither' : 'embedded-neither'}@${variant.concurrency}`)!.map(row => Number(row['serving p95 ms'])))).toFixed(2),
    }
  })
}

export async function runBackgroundJobsBench() {
  const model = start('./background-jobs/fake-model-process.ts', { BENCH_STEPS: String(STEPS) })
  const redis = await startRedisServer()
  const probe = new Redis(redis.url)
  const rows: Record<string, string | number>[] = []
  let serving: Record<string, string | number>[] = []
  try {
    const { url } = await model.next<{ type: 'ready', url: string }>('ready')
    const base = { modelUrl: `${url}/v1`, steps: STEPS }
    const embedded = (): InstanceConfig[] => [{ ...base, name: 'embedded', mode: 'embedded', queueName: '', keyPrefix: '', concurrency: CHATS }]
    const onRedis = (run: number, concurrency: [number, number]): InstanceConfig[] => ['A', 'B'].map((name, index) => ({ ...base, name, mode: 'redis' as const, redisUrl: redis.url, queueName: `bench-${run}`, keyPrefix: `bench${run}:`, concurrency: concurrency[index]! }))
    const redisBytes = async () => Number(/used_memory:(\d+)/.exec(await probe.info('memory'))?.[1] ?? 0)
    // The first pass only warms the machine up (disk cache of the modules, the model's connection pool).
    await runScenario('warm-up', embedded(), model, async () => 0)
    if (wanted('embedded')) rows.push(await runScenario('embedded (1 instance: in-process queue, memory store)', embedded(), model, async () => 0))
    if (wanted('both')) rows.push(await runScenario('Redis, 2 instances: both run chats and serve streams', onRedis(2, [Math.ceil(CHATS / 2), Math.ceil(CHATS / 2)]), model, redisBytes))
    // As the server runs them: each instance takes at most NUXT_JOB_CONCURRENCY chats at once, the rest wait in the queue.
    const bounded = Number(process.env.BENCH_JOBS_CONCURRENCY ?? DEFAULT_JOB_CONCURRENCY)
    if (wanted('both-bounded')) rows.push(await runScenario(`Redis, 2 instances: both run chats (at most ${bounded} at once each) and serve streams`, onRedis(4, [bounded, bounded]), model, redisBytes))
    if (wanted('a-runs')) rows.push(await runScenario('Redis, 2 instances: A runs every chat, B only serves streams', onRedis(3, [CHATS, 0]), model, redisBytes))
    if (wanted('serving')) serving = await compareServing(model, redis.url, base.modelUrl, redisBytes)
  }
  finally {
    probe.disconnect()
    model.send({ type: 'close' })
    await stop(model.child)
    await redis.stop()
  }
  printTable(`${CHATS} concurrent background chats, ${STEPS} steps each (2 no-op server tool calls + text), fake model and every instance in its own process; latency = runner's append → subscriber on the other instance (embedded: the one instance); memory = heap + external (after GC) summed over instances, and Redis used_memory, with all chats waiting in their last step`, rows)
  if (serving.length) printTable(`Keeping the serving thread free: one instance runs ${CHATS} chats and serves GET /ping on its main thread (probed one request at a time, 5 ms apart); ${REPS} interleaved repetitions, median (min–max)`, serving)
  const suffix = CHATS === 500 ? '' : `-${CHATS}`
  if (rows.length) console.log(`written ${await writeResult(`background-jobs${suffix}`, { chats: CHATS, steps: STEPS, processes: 'separate', targets: { 'latency p99 ms': 50, 'KB/job': 100 }, rows })}`)
  if (serving.length) console.log(`written ${await writeResult(`background-jobs-serving${suffix}`, { chats: CHATS, steps: STEPS, repetitions: REPS, serving })}`)
  return rows
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runBackgroundJobsBench()
  process.exit(0)
}
