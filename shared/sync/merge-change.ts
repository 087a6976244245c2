import { compareHlc } from './hlc'
import type { SyncChange } from './sync-record'

/**
 * Which of two changes to one record wins. Every device and the server pick with this one rule, and because it is
 * a total order (the larger of the two wins), applying the same set of changes in any order ends in the same state.
 *
 * - Threads and presets: last writer wins by clock; a tombstone beats a write with an older clock, and a write made
 *   after the delete (a device that edited the thread offline) brings it back rather than losing that edit.
 * - Messages are append-mostly: an id is written by the device that created it, an edit is a new node of the tree,
 *   so a later write of the same id is that device finishing the message. A deleted message stays deleted: a stale
 *   device writing it again must not bring a removed branch back.
 * - Equal clocks are the same write (the clock names its device): the tombstone wins.
 */
export function winningChange<T extends SyncChange>(current: T | undefined, incoming: T): T {
  if (!current) return incoming
  return compareChanges(incoming, current) > 0 ? incoming : current
}

/** The order behind `winningChange`: positive when `a` wins over `b`. */
export function compareChanges(a: SyncChange, b: SyncChange): number {
  if (a.kind === 'message' && a.deleted !== b.deleted) return a.deleted ? 1 : -1
  const byClock = compareHlc(a.hlc, b.hlc)
  if (byClock !== 0) return byClock
  if (a.deleted !== b.deleted) return a.deleted ? 1 : -1
  // Two bodies under one clock come only from a misbehaving device; the order still has to be total to converge.
  const [left, right] = [JSON.stringify(a.body), JSON.stringify(b.body)]
  return left < right ? -1 : left > right ? 1 : 0
}

/** Folds changes into the winning change per record (a device's or the server's view of them). */
export function mergeChanges<T extends SyncChange>(state: Map<string, T>, changes: Iterable<T>): Map<string, T> {
  for (const change of changes) {
    const key = `${change.kind}:${change.id}`
    state.set(key, winningChange(state.get(key), change))
  }
  return state
}
