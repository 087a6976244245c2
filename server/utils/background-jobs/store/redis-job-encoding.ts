import { StorageError } from '#shared/errors/storage-error'
import type { JobEvent, JobRecord } from './job-store-types'

/** A record as hash fields, each value JSON-encoded, so a shallow merge is an HSET of the changed fields. */
export function encodeJobFields(fields: Partial<JobRecord>): { set: string[], unset: string[] } {
  const set: string[] = []
  const unset: string[] = []
  for (const [name, value] of Object.entries(fields)) {
    // As in an object spread, a field patched to undefined is gone afterwards.
    if (value === undefined) unset.push(name)
    else set.push(name, JSON.stringify(value))
  }
  return { set, unset }
}

/** A record from HGETALL's object or flat [field, value, ...] array; undefined when there are no fields. */
export function decodeJobFields(fields: Record<string, string> | string[] | null): JobRecord | undefined {
  if (!fields) return undefined
  const pairs = Array.isArray(fields) ? pairsOf(fields) : Object.entries(fields)
  if (pairs.length === 0) return undefined
  const record: Record<string, unknown> = {}
  for (const [name, value] of pairs) record[name] = parseStored(value, 'read job')
  return record as unknown as JobRecord
}

/** One stream entry (`<id>-0`, ['event', json]) as the JobEvent it was appended as. */
export function decodeStreamEntry<T>(jobId: string, [streamId, fields]: [string, string[]]): JobEvent<T> {
  const at = fields.indexOf('event')
  return { id: Number.parseInt(streamId, 10), jobId, event: parseStored(fields[at + 1] ?? 'null', 'read job event') as T }
}

/** An event as the stream stores it. `undefined` has no JSON form, so it is stored (and read back) as null. */
export function encodeEvent(event: unknown): string {
  return JSON.stringify(event) ?? 'null'
}

function pairsOf(flat: string[]): [string, string][] {
  const pairs: [string, string][] = []
  for (let index = 0; index + 1 < flat.length; index += 2) pairs.push([flat[index]!, flat[index + 1]!])
  return pairs
}

function parseStored(text: string, operation: string): unknown {
  try {
    return JSON.parse(text)
  }
  catch (cause) {
    throw new StorageError('A job stored in Redis is not valid JSON: another program may share this Redis key prefix.', { operation, cause })
  }
}
