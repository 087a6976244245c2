/** Timing summary of one measured function. */
export interface Measurement {
  medianMs: number
  minMs: number
  maxMs: number
  /** How many timed runs the figures come from (warm-up runs excluded). */
  runs: number
}

export interface MeasureOptions {
  /**
   * Timed runs; the median of these is the headline figure.
   * @default 7
   */
  runs?: number
  /**
   * Untimed runs first, so JIT compilation and lazy imports do not land in the figures.
   * @default 2
   */
  warmup?: number
}

/** Middle value of a list of numbers (mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/**
 * Times `fn` (sync or async) `runs` times after `warmup` untimed runs, one run after another.
 * Reports the median, which is robust against a stray GC pause or a noisy neighbour.
 */
export async function measure(
  fn: () => Promise<unknown> | unknown,
  options: MeasureOptions = {},
): Promise<Measurement> {
  const { runs = 7, warmup = 2 } = options
  for (let i = 0; i < warmup; i++) await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await fn()
    times.push(performance.now() - start)
  }
  return { medianMs: median(times), minMs: Math.min(...times), maxMs: Math.max(...times), runs }
}
