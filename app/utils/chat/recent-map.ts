/**
 * Sets `key` as the newest entry of `map` (a Map keeps insertion order) and drops the oldest beyond `max`: the
 * page-long memories and caches that keep what was used last (scroll places, turn heights, drafts, view state).
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key)
  map.set(key, value)
  while (map.size > max) map.delete(map.keys().next().value!)
}
