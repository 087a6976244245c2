import { shallowRef } from 'vue'
import type { PlugboardDatabase } from '../database'
import type { WantedBlobs } from './sync-blobs'

/** Where the files still to fetch are kept, so a reload (or a closed tab) does not forget them. */
const WANTED_KEY = 'wantedFiles'
/** Messages whose files are awaited at most: past this the oldest are forgotten (their messages stay). */
export const MAX_WANTED_MESSAGES = 2_000
/** The first pause after a failed fetch; it doubles with each failure, up to the engine's longest pause. */
export const FIRST_RETRY_MS = 2_000

/** How many files this device still has to fetch: the device state shows it. */
export const wantedFileCount = shallowRef(0)

/** The files still to fetch, as the last sync left them (empty on a device that has every file). */
export async function loadWantedFiles(db: PlugboardDatabase): Promise<WantedBlobs[]> {
  const value = (await db.syncState.get(WANTED_KEY))?.value
  const wanted = Array.isArray(value) ? value as WantedBlobs[] : []
  wantedFileCount.value = countFiles(wanted)
  return wanted
}

/** Keeps the list for the next sync and the next page load; bounded (the newest are kept). */
export async function saveWantedFiles(db: PlugboardDatabase, wanted: readonly WantedBlobs[]): Promise<WantedBlobs[]> {
  const kept = wanted.slice(-MAX_WANTED_MESSAGES)
  if (kept.length < wanted.length) console.warn(`[sync] ${wanted.length - kept.length} message(s) will not have their files fetched: too many files are waiting`)
  if (kept.length > 0) await db.syncState.put({ key: WANTED_KEY, value: kept })
  else await db.syncState.delete(WANTED_KEY)
  wantedFileCount.value = countFiles(kept)
  return kept
}

/** The list with `more` added; a message already listed is listed once, with the files it now lacks. */
export function mergeWanted(wanted: readonly WantedBlobs[], more: readonly WantedBlobs[]): WantedBlobs[] {
  const byMessage = new Map(wanted.map(entry => [entry.messageId, entry]))
  for (const entry of more) {
    byMessage.delete(entry.messageId)
    byMessage.set(entry.messageId, entry)
  }
  return [...byMessage.values()]
}

/** The pause before the next try of a message's files after `attempts` failures. */
export function retryDelayMs(attempts: number, maxRetryMs: number): number {
  return Math.min(maxRetryMs, FIRST_RETRY_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 16))
}

/** The entries whose pause is over at `now`. */
export function dueWanted(wanted: readonly WantedBlobs[], now: number): WantedBlobs[] {
  return wanted.filter(entry => (entry.retryAt ?? 0) <= now)
}

function countFiles(wanted: readonly WantedBlobs[]): number {
  return wanted.reduce((sum, entry) => sum + entry.attachments.length, 0)
}
