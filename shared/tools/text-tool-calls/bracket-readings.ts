import { continueBracketReading, type BalancedScan, type BracketReading } from './safe-json'

/**
 * Where the brackets of a growing buffer close, so that a balanced scan from any bracket is answered without
 * reading on to the end again. Scanning from each of a run of unclosed brackets (`{{{{…`, text that is not a call)
 * read the rest of the buffer once per bracket; readings kept here read each character once per way of seeing
 * strings, and readings that come to see strings alike are merged, so there are never more than three.
 */
export interface BracketReadings {
  /** The buffer after it changed; `cut` characters were removed from its front. */
  track: (buffer: string, cut: number) => void
  /** `scanBalanced(buffer, start)` for a bracket at `start`. */
  scan: (start: number) => BalancedScan
}

export function createBracketReadings(): BracketReadings {
  let buffer = ''
  /** Characters cut from the front so far: positions below are absolute, so they survive a cut. */
  let offset = 0
  const closes = new Map<number, number>()
  let readings: BracketReading[] = []

  function readOn(): void {
    for (const reading of readings) continueBracketReading(buffer, reading, offset, closes)
    // All readings now stand at the end of the buffer; two that see strings alike read alike from here on.
    for (let index = readings.length - 1; index > 0; index--) {
      const later = readings[index]!
      const same = readings.find((reading, other) => other < index && reading.inString === later.inString && reading.escaped === later.escaped)
      if (!same) continue
      mergeInto(same, later)
      readings.splice(index, 1)
    }
  }

  return {
    track(next, cut) {
      buffer = next
      offset += cut
      if (cut === 0) return
      // A reading that had not read up to the new front cannot go on (its text is gone).
      const [kept, lost] = [readings.filter(reading => reading.index >= offset), readings.filter(reading => reading.index < offset)]
      for (const reading of lost) for (const level of reading.open) for (const position of level) closes.delete(position)
      readings = kept
      if (closes.size > 1_024 && closes.size > 2 * buffer.length) {
        for (const position of closes.keys()) if (position < offset) closes.delete(position)
      }
    },
    scan(start) {
      const at = start + offset
      readOn()
      if (!closes.has(at)) {
        // Every reading sees this bracket inside a string (or none has started): read from it as the scan would.
        readings.push({ index: at, inString: false, escaped: false, open: [] })
        readOn()
      }
      const close = closes.get(at)!
      return close === -1 ? { complete: false } : { complete: true, end: close + 1 - offset }
    },
  }
}

/** `later`'s open brackets join `kept`'s, level by level from the innermost: they will close together. */
function mergeInto(kept: BracketReading, later: BracketReading): void {
  const [longer, shorter] = kept.open.length >= later.open.length ? [kept.open, later.open] : [later.open, kept.open]
  for (let depth = 1; depth <= shorter.length; depth++) longer[longer.length - depth]!.push(...shorter[shorter.length - depth]!)
  kept.open = longer
}
