// The soak: no chat lost or doubled under kills: 200 background chats over two built-app instances on one redis-server
// (AOF on), while the instances are SIGKILLed and started again at seeded random moments and Redis is killed and
// started again once on its port and dir. Each chat is read through GET /api/chats/:id/events by a client that
// reconnects with Last-Event-ID to whichever instance is up. Checks: every chat ends (`finish`, or `fail` with a
// reason) within the bound; no event id repeats or skips; no tool call runs twice (fetch_web_page's page reads,
// counted by the upstream; tool-call ends per call id); each instance's RSS comes back near its baseline once the
// chats are over. Prints a report and writes bench/results/soak.json; exits 1 when a check fails.
//
//   npm run build && npm run soak                 (200 chats, a few minutes)
//   npm run soak -- --chats 20                    (quick)
//   options: --seed <n> (20), --interval <ms between chat starts> (600), --redis-signal KILL|TERM (KILL)
import { parseArgs } from 'node:util'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { printTable, writeResult } from '../lib/index'
import { followChat } from './chat-follower'
import type { ChatTrace } from './chat-follower'
import { startSlot, residentMb } from './instance-slots'
import type { InstanceSlot } from './instance-slots'
import { startAofRedis } from './redis-aof'
import { startSoakUpstream } from './soak-upstream'
import type { SoakTool } from './soak-upstream'
import { buildReport } from './soak-report'

const { values } = parseArgs({
  options: {
    'chats': { type: 'string', default: '200' },
    'seed': { type: 'string', default: '20' },
    'interval': { type: 'string', default: '600' },
    'redis-signal': { type: 'string', default: 'KILL' },
  },
})
const CHATS = Number(values.chats)
const SEED = Number(values.seed)
const INTERVAL_MS = Number(values.interval)
const REDIS_SIGNAL = values['redis-signal'] === 'TERM' ? 'SIGTERM' : 'SIGKILL'
/** A chat that has not ended this long after it started never will, as far as the soak is concerned. */
const CHAT_BOUND_MS = 120_000
/** How long the instances idle after the last chat before their memory is read again. */
const SETTLE_MS = 15_000
const LOCK_MS = 3000
/** A kill waits until its instance has been up this long (it has had time to take jobs over). */
const MIN_UPTIME_MS = 3000

if (!existsSync('.output/server/index.mjs')) {
  console.error('No build: run `npx nuxt build` first (the soak runs .output/server/index.mjs).')
  process.exit(2)
}

/** mulberry32: a small seeded generator, so a seed gives the same plans and the same chaos schedule. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6D2B79F5) >>> 0
    let value = state
    value = Math.imul(value ^ (value >>> 15), value | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))
const random = seeded(SEED)
const PLANS: SoakTool[][] = [[], ['calc'], ['fetch'], ['calc', 'fetch'], ['calc'], ['fetch', 'calc']]
const plans = Array.from({ length: CHATS }, () => PLANS[Math.floor(random() * PLANS.length)]!)
const windowMs = CHATS * INTERVAL_MS
const killCount = Math.max(1, Math.round(windowMs / 15_000))
const kills = Array.from({ length: killCount }, () => ({ atMs: Math.round(windowMs * (0.1 + 0.7 * random())), slot: random() < 0.5 ? 0 : 1, downMs: 1000 + Math.round(3000 * random()) }))
  .sort((a, b) => a.atMs - b.atMs)
const redisRestartAtMs = Math.round(windowMs * 0.5)

const startedAt = Date.now()
const timeline: { atMs: number, what: string }[] = []
const note = (what: string) => {
  timeline.push({ atMs: Date.now() - startedAt, what })
  console.log(`[${((Date.now() - startedAt) / 1000).toFixed(1)} s] ${what}`)
}

const upstream = await startSoakUpstream()
const redis = await startAofRedis()
const env = {
  NUXT_REDIS_URL: redis.url,
  NUXT_OPENROUTER_API_KEY: 'sk-or-soak-server-key',
  NUXT_OPENROUTER_BASE_URL: upstream.base,
  NUXT_SESSION_PASSWORD: 'soak-shared-session-password-0123456789abcdef',
  NUXT_RATE_LIMIT_PER_MINUTE: '100000',
  NUXT_JOB_LOCK_DURATION_MS: String(LOCK_MS),
  NUXT_JOB_STALLED_INTERVAL_MS: String(LOCK_MS),
  NUXT_FETCH_ALLOWED_HOSTS: upstream.host,
}
const slots: InstanceSlot[] = [await startSlot('A', env), await startSlot('B', env)]
note(`redis ${redis.url}, instances ${slots.map(slot => `${slot.name} ${slot.url}`).join(', ')}; ${CHATS} chats, one every ${INTERVAL_MS} ms, seed ${SEED}`)
const sampler = setInterval(() => slots.forEach(slot => slot.sample()), 500)
const loadBefore = loadavg()[0]!

/** Chat numbers of the warm-up (apart from the soak's 0...n-1). */
const WARM_UP_CHAT = 100_000
/** Chat numbers of the calm wave after the soak. */
const CALM_CHAT = 200_000

/** Three readings of a slot's RSS a second apart (the least is the one a passing allocation did not inflate). */
async function readRss(slot: InstanceSlot): Promise<number[]> {
  const readings: number[] = []
  for (let index = 0; index < 3; index++) {
    const app = slot.current()
    readings.push(app ? residentMb(app.pid) ?? 0 : 0)
    await sleep(1000)
  }
  return readings
}

// A client of the soak's own on the same Redis, to say what the store held when a stream went silent.
const inspector = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 3 })
inspector.on('error', () => {})
async function onSilent(jobId: string, url: string, lastIdRead: number): Promise<unknown> {
  const [last] = await inspector.xrevrange(`plugboard:job:{${jobId}}:events`, '+', '-', 'COUNT', 1)
  const record = await inspector.hgetall(`plugboard:job:{${jobId}}`)
  const fields = Object.fromEntries(Object.entries(record).filter(([key]) => !['state', 'spec', 'messages'].includes(key)).map(([key, value]) => [key, value.slice(0, 200)]))
  // Whether any connection still listens on the job's channel (the live feed), and the pub/sub connections.
  const [, listeners] = await inspector.pubsub('NUMSUB', `plugboard:job:{${jobId}}:events`) as [string, number]
  const pubsubClients = String(await inspector.client('LIST')).split('\n').filter(line => / sub=[1-9]/.test(line)).map(line => line.replace(/ (fd|age|idle|qbuf|qbuf-free|argv-mem|multi-mem|obl|oll|omem|tot-mem|events|user|redir|resp|rbs|rbp|lib-name|lib-ver|ssub|watch|io-thread|db|psub|flags|id|laddr)=\S*/g, ''))
  const slot = slots.find(item => item.url === url)
  return { atMs: Date.now() - startedAt, instance: `${slot?.name} pid ${slot?.processes.at(-1)?.pid}`, lastIdRead, streamLastId: last?.[0], channelListeners: listeners, pubsubClients, record: fields }
}

const upUrls = () => slots.filter(slot => slot.current()).map(slot => slot.url)
const readerRandom = seeded(SEED + 1)
const followers: Promise<ChatTrace>[] = []
let lastChatStarted = 0

async function chaos(): Promise<void> {
  const events = [...kills.map(kill => ({ ...kill, kind: 'kill' as const })), { atMs: redisRestartAtMs, slot: -1, downMs: 1500, kind: 'redis' as const }]
    .sort((a, b) => a.atMs - b.atMs)
  const pending: Promise<void>[] = []
  for (const event of events) {
    await sleep(Math.max(0, startedChatsAt + event.atMs - Date.now()))
    if (event.kind === 'redis') {
      note(`redis: ${REDIS_SIGNAL}, back in ${event.downMs} ms`)
      pending.push(redis.restart(REDIS_SIGNAL, event.downMs).then(() => note('redis: up again (AOF)')))
      continue
    }
    const slot = slots[event.slot]!
    const other = slots[1 - event.slot]!
    // One instance always stays up, so a chat always has somewhere to go: a kill due while one is down waits.
    // It also waits for the instance to have been up a while (taking jobs over), not to kill it as it starts.
    while (!slot.current() || !other.current() || Date.now() - slot.processes.at(-1)!.startedAt < MIN_UPTIME_MS) await sleep(200)
    note(`SIGKILL ${slot.name} (pid ${slot.current()!.pid}), back in ${event.downMs} ms`)
    slot.kill()
    pending.push(sleep(event.downMs).then(() => slot.restart()).then(() => note(`${slot.name} up again (pid ${slot.current()?.pid})`)))
  }
  await Promise.all(pending)
}

// Warm-up: chats of every plan before the soak, so the baseline is an instance that has loaded what chats load
// (mathjs on first calculate, the runner's chunks), not a cold one. 24 at once: more than one instance's runner
// takes (NUXT_JOB_CONCURRENCY, 10), so both get some.
const WARM_UP_PLANS: SoakTool[][] = Array.from({ length: 24 }, (_, index) => ([[], ['calc'], ['fetch'], ['calc', 'fetch']] as SoakTool[][])[index % 4]!)
await Promise.all(WARM_UP_PLANS.map((plan, index) => followChat(WARM_UP_CHAT + index, plan, { upUrls, random: readerRandom, boundMs: CHAT_BOUND_MS })))
await sleep(5000)
for (const slot of slots) slot.processes[0]!.warmMb = Math.min(...await readRss(slot))
note(`warm-up: ${WARM_UP_PLANS.length} chats; RSS ${slots.map(slot => `${slot.name} ${slot.processes[0]!.baselineMb.toFixed(0)} → ${slot.processes[0]!.warmMb!.toFixed(0)} MB`).join(', ')}`)

const startedChatsAt = Date.now()
const chaosDone = chaos()
for (let chat = 0; chat < CHATS; chat++) {
  await sleep(Math.max(0, startedChatsAt + chat * INTERVAL_MS - Date.now()))
  followers.push(followChat(chat, plans[chat]!, { upUrls, random: readerRandom, boundMs: CHAT_BOUND_MS, onSilent }))
  lastChatStarted = Date.now()
  if ((chat + 1) % 50 === 0) note(`${chat + 1} chats started`)
}
const traces = await Promise.all(followers)
await chaosDone
const chatsOverAt = Date.now()
note(`all chats over (${traces.filter(trace => trace.outcome === 'finish' || trace.outcome === 'fail').length}/${CHATS} ended), ${((chatsOverAt - lastChatStarted) / 1000).toFixed(1)} s after the last start; idling ${SETTLE_MS / 1000} s`)

await sleep(SETTLE_MS)
for (const slot of slots) slot.processes.at(-1)!.afterMb = Math.min(...await readRss(slot))

// A calm wave (no kills) of half as many chats, then the same idle: memory that a chat leaves behind grows again by
// about as much per chat; memory the process only keeps (heap and allocator high-water marks) stays where it was.
const CALM_CHATS = Math.ceil(CHATS / 2)
note(`calm wave: ${CALM_CHATS} chats, no kills`)
const calmFollowers: Promise<ChatTrace>[] = []
const calmStartedAt = Date.now()
for (let index = 0; index < CALM_CHATS; index++) {
  await sleep(Math.max(0, calmStartedAt + index * INTERVAL_MS - Date.now()))
  calmFollowers.push(followChat(CALM_CHAT + index, plans[index % CHATS]!, { upUrls, random: readerRandom, boundMs: CHAT_BOUND_MS, onSilent }))
}
const calmTraces = await Promise.all(calmFollowers)
note(`calm wave over (${calmTraces.filter(trace => trace.outcome === 'finish' || trace.outcome === 'fail').length}/${CALM_CHATS} ended); idling ${SETTLE_MS / 1000} s`)
await sleep(SETTLE_MS)
for (const slot of slots) slot.processes.at(-1)!.afterCalmMb = Math.min(...await readRss(slot))
clearInterval(sampler)

const report = buildReport({
  traces, calmTraces, upstream: upstream.record, slots, timeline,
  durationMs: Date.now() - startedAt, chatsPhaseMs: chatsOverAt - startedChatsAt, boundMs: CHAT_BOUND_MS,
  settings: { chats: CHATS, seed: SEED, intervalMs: INTERVAL_MS, redisSignal: REDIS_SIGNAL, lockMs: LOCK_MS, settleMs: SETTLE_MS, kills: kills.length, calmChats: CALM_CHATS },
  loadAverage: { before: loadBefore, after: loadavg()[0]! },
})

printTable('Chats', report.tables.chats)
printTable('Event ids and tool calls', report.tables.integrity)
printTable('Memory per process (VmRSS, MB)', report.tables.memory)
console.log(`\n${report.checks.map(check => `${check.pass ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}`).join('\n')}`)
const path = await writeResult(CHATS === 200 ? 'soak' : `soak-${CHATS}`, report.data)
console.log(`\nwritten to ${path}`)

// The instances' own output (errors they logged), for whoever reads a failed check.
const logs = mkdtempSync(join(tmpdir(), 'plugboard-soak-logs-'))
for (const slot of slots) for (const [index, text] of slot.outputs().entries()) writeFileSync(join(logs, `${slot.name}-${index + 1}.log`), text)
console.log(`instance logs in ${logs}`)
inspector.disconnect()
for (const slot of slots) await slot.stop()
await redis.stop()
await upstream.close()
process.exit(report.checks.every(check => check.pass) ? 0 : 1)
