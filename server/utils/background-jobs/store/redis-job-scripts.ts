import type { Redis } from 'ioredis'
import { FINISHED_JOB_STATUSES } from './job-retention'

/** How a script's error reply starts when it refused a stale runner's write. */
export const STALE_RUN_REPLY = 'STALE_RUN'

// Record fields are stored JSON-encoded, so the status field of a finished job reads '"done"' and so on.
const FINISHED_TABLE = `{ ${FINISHED_JOB_STATUSES.map(status => `[${luaString(JSON.stringify(status))}] = true`).join(', ')} }`

// Both scripts give a job's record and events the same expiry, from the record's status: finished jobs live
// ARGV[finished] ms after their last change, others ARGV[idle] ms. Any change renews both, like the embedded store.
const EXPIRE_BOTH = `
local FINISHED = ${FINISHED_TABLE}
local function expireBoth(recordKey, eventsKey, finishedTtl, idleTtl)
  local ttl = idleTtl
  if FINISHED[redis.call('HGET', recordKey, 'status')] then ttl = finishedTtl end
  redis.call('PEXPIRE', recordKey, ttl)
  redis.call('PEXPIRE', eventsKey, ttl)
end
`

// A runner's write carries its claim's token (ARGV, '' for writes that are no runner's): refused unless the record
// exists with that runToken, so a runner that stalled past its lock while another claimed the job writes nothing.
const FENCE = `
local function fenced(recordKey, token)
  if token ~= '' and redis.call('HGET', recordKey, 'runToken') ~= token then
    return redis.error_reply('${STALE_RUN_REPLY} this job was claimed by a newer run')
  end
  return nil
end
`

/**
 * KEYS: events stream, record. ARGV: payload, max events, finished TTL, idle TTL, fence token. Returns the new
 * event's id. The id is the stream's last id + 1, read and written in one script, so appends from any number of
 * instances get distinct, strictly increasing ids (1, 2, 3...) and the stream's order is the id order. Stream ids
 * are `<n>-0`. The entry is also published on the channel named like the stream (`<id>\n<payload>`), in the same
 * step, so a subscriber gets it in one hop and in id order (redis-event-hub.ts); the stream stays the record.
 */
const APPEND_EVENT = `${EXPIRE_BOTH}${FENCE}
local refused = fenced(KEYS[2], ARGV[5])
if refused then return refused end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local id = 1
if #last > 0 then id = tonumber(string.match(last[1][1], '^%d+')) + 1 end
redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], id .. '-0', 'event', ARGV[1])
expireBoth(KEYS[2], KEYS[1], ARGV[3], ARGV[4])
redis.call('PUBLISH', KEYS[1], id .. '\\n' .. ARGV[1])
return id
`

/**
 * KEYS: record, events stream. ARGV: finished TTL, idle TTL, mode ('update' or 'claim'), fence token, n, then n
 * field/value pairs to set, then fields to delete. Returns the merged record's HGETALL, or nil when there is no
 * record: the merge happens inside Redis, so two instances updating different fields of one job never undo each
 * other. 'claim' bumps runToken in the same step (every earlier claim is fenced off from then on).
 */
const UPDATE_JOB = `${EXPIRE_BOTH}${FENCE}
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local refused = fenced(KEYS[1], ARGV[4])
if refused then return refused end
if ARGV[3] == 'claim' then redis.call('HINCRBY', KEYS[1], 'runToken', 1) end
local setCount = tonumber(ARGV[5])
for i = 1, setCount do redis.call('HSET', KEYS[1], ARGV[4 + i * 2], ARGV[5 + i * 2]) end
for i = 6 + setCount * 2, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
expireBoth(KEYS[1], KEYS[2], ARGV[1], ARGV[2])
return redis.call('HGETALL', KEYS[1])
`

/** The job store's Lua scripts, callable on a client (ioredis sends EVALSHA and falls back to EVAL). */
export interface JobStoreScripts {
  appendJobEvent: (eventsKey: string, recordKey: string, payload: string, maxEvents: number, finishedTtlMs: number, idleTtlMs: number, fenceToken: string) => Promise<number>
  updateJobFields: (recordKey: string, eventsKey: string, finishedTtlMs: number, idleTtlMs: number, mode: 'update' | 'claim', fenceToken: string, ...rest: (string | number)[]) => Promise<string[] | null>
}

/** Defines the scripts on `redis` (once per client) and returns them. */
export function jobStoreScripts(redis: Redis): JobStoreScripts {
  const client = redis as Redis & Partial<Record<'plugboardAppendJobEvent' | 'plugboardUpdateJobFields', (...args: unknown[]) => Promise<never>>>
  if (!client.plugboardAppendJobEvent) client.defineCommand('plugboardAppendJobEvent', { numberOfKeys: 2, lua: APPEND_EVENT })
  if (!client.plugboardUpdateJobFields) client.defineCommand('plugboardUpdateJobFields', { numberOfKeys: 2, lua: UPDATE_JOB })
  return {
    appendJobEvent: (...args) => client.plugboardAppendJobEvent!(...args),
    updateJobFields: (...args) => client.plugboardUpdateJobFields!(...args),
  }
}

function luaString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, '\\\'')}'`
}
